import { spawn } from 'node:child_process';
import { sqliteDriverPath } from 'agentlib/storage';

/** A value a query parameter may take. */
export type SqlParam = string | number | boolean | null;

/** What a query returns. */
export interface QueryResult {
  columns: string[];
  rows: unknown[][];
  /** True when more rows existed than `maxRows`. */
  truncated: boolean;
  elapsedMs: number;
}

/** Options of runReadOnlyQuery. */
export interface QueryOptions {
  file: string;
  sql: string;
  params?: readonly SqlParam[] | Record<string, SqlParam> | undefined;
  maxRows: number;
  /** Characters kept per text cell. */
  maxCellChars: number;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

// Runs in a child Node process (plain CommonJS given with -e; the job comes as JSON on stdin, the
// reply goes to stdout as JSON) so a runaway query can be stopped with SIGKILL: better-sqlite3 is
// synchronous, SQLite's progress handler is not exposed, and a worker thread busy inside SQLite
// cannot be terminated.
const RUNNER_SOURCE = `
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
const job = JSON.parse(input);
const reply = (message) => process.stdout.write(JSON.stringify(message));
const Database = require(job.driver);
const { file, sql, params, maxRows, maxCellChars } = job;
const started = Date.now();
const cell = (value) => {
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return '<blob ' + value.length + ' bytes>';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string' && value.length > maxCellChars) return value.slice(0, maxCellChars) + '…';
  return value;
};
let db;
try {
  db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('query_only = ON');
  const stmt = db.prepare(sql);
  if (!stmt.readonly) throw Object.assign(new Error('refused: the statement would modify the database; only read-only queries are allowed'), { code: 'AGENTLIB_NOT_READONLY' });
  if (!stmt.reader) throw Object.assign(new Error('refused: the statement returns no rows; only queries (SELECT, WITH … SELECT, VALUES, EXPLAIN) are allowed'), { code: 'AGENTLIB_NOT_QUERY' });
  stmt.raw(true);
  const columns = stmt.columns().map((column) => column.name);
  const rows = [];
  let truncated = false;
  const iterator = params === undefined ? stmt.iterate() : Array.isArray(params) ? stmt.iterate(...params) : stmt.iterate(params);
  for (const row of iterator) {
    if (rows.length >= maxRows) { truncated = true; break; }
    rows.push(row.map(cell));
  }
  reply({ ok: true, columns, rows, truncated, elapsedMs: Date.now() - started });
} catch (error) {
  reply({ ok: false, message: error && error.message ? String(error.message) : String(error), code: error && error.code ? String(error.code) : undefined });
} finally {
  if (db) db.close();
}
});
`;

type RunnerReply = { ok: true; columns: string[]; rows: unknown[][]; truncated: boolean; elapsedMs: number } | { ok: false; message: string; code?: string };

/** A query refused or failed inside SQLite (message from SQLite or from the read-only checks). */
export class SqlQueryError extends Error {
  override readonly name = 'SqlQueryError';
  readonly code: string | undefined;
  constructor(message: string, code?: string) {
    super(message);
    this.code = code;
  }
}

const driverPath = sqliteDriverPath();

function toBindable(value: SqlParam): string | number | null {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

/**
 * Runs one read-only query in a child Node process: the database is opened read-only with
 * `query_only`, the statement must be read-only (`stmt.readonly`) and return rows (`stmt.reader`),
 * rows stop at `maxRows` (reported as `truncated`), and the process is killed after `timeoutMs`
 * or when `signal` aborts.
 */
export function runReadOnlyQuery(options: QueryOptions): Promise<QueryResult> {
  const params =
    options.params === undefined
      ? undefined
      : Array.isArray(options.params)
        ? (options.params as readonly SqlParam[]).map(toBindable)
        : Object.fromEntries(Object.entries(options.params).map(([key, value]) => [key, toBindable(value)]));
  return new Promise<QueryResult>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(options.signal.reason instanceof Error ? options.signal.reason : new Error('query cancelled'));
      return;
    }
    const child = spawn(process.execPath, ['-e', RUNNER_SOURCE], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 4000) stderr += chunk;
    });
    let settled = false;
    const settle = (action: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      action();
    };
    const timer = setTimeout(() => settle(() => reject(new SqlQueryError(`query timed out after ${options.timeoutMs} ms and was stopped; add filters or a LIMIT`, 'AGENTLIB_TIMEOUT'))), options.timeoutMs);
    const onAbort = (): void => settle(() => reject(options.signal?.reason instanceof Error ? options.signal.reason : new Error('query cancelled')));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error) => settle(() => reject(error)));
    child.once('close', (code) => {
      settle(() => {
        let reply: RunnerReply;
        try {
          reply = JSON.parse(stdout) as RunnerReply;
        } catch {
          reject(new Error(`query process failed (exit ${String(code)}): ${stderr.trim().slice(0, 500)}`));
          return;
        }
        if (reply.ok) resolve({ columns: reply.columns, rows: reply.rows, truncated: reply.truncated, elapsedMs: reply.elapsedMs });
        else reject(new SqlQueryError(reply.message, reply.code));
      });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify({ driver: driverPath, file: options.file, sql: options.sql, params, maxRows: options.maxRows, maxCellChars: options.maxCellChars }));
  });
}
