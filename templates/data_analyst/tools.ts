/**
 * Data analyst tools: read-only SQL over a SQLite file. The database is `context.database`, else
 * `AGENTLIB_SQLITE_PATH`, else the bundled sample (built by ensureSampleDatabase). Every connection
 * is opened read-only; run_sql additionally accepts only one statement that starts with SELECT,
 * WITH, VALUES or EXPLAIN, is read-only by SQLite's own judgement and returns rows; it runs in a
 * child process that is killed at the time limit.
 */
import { tool, z } from 'agentlib';
import { openSqlite, type SqliteDatabase } from 'agentlib/storage';
import { contextNumber, contextString, envString } from '../_shared/context.js';
import { ensureSampleDatabase } from './sample-db.js';
import { runReadOnlyQuery, SqlQueryError } from './sql-runner.js';

export { ensureSampleDatabase } from './sample-db.js';

/** Rows run_sql returns at most. */
export const MAX_ROWS = 200;
/** Default time limit of one query, in milliseconds (context `sqlTimeoutMs` overrides). */
export const DEFAULT_TIMEOUT_MS = 5_000;
/** Characters of JSON run_sql returns at most (rows are dropped from the end past it). */
export const MAX_RESULT_CHARS = 60_000;

/** The database file for a call: `context.database`, else AGENTLIB_SQLITE_PATH, else the sample database. */
export function databasePath(context: unknown): string {
  return contextString(context, 'database') ?? envString('AGENTLIB_SQLITE_PATH') ?? ensureSampleDatabase();
}

function openReadOnly(file: string): SqliteDatabase {
  const db = openSqlite(file, { readonly: true, fileMustExist: true });
  db.pragma('query_only = ON');
  return db;
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

interface SchemaObject {
  name: string;
  type: 'table' | 'view';
  sql: string | null;
}

function schemaObjects(db: SqliteDatabase): SchemaObject[] {
  return db
    .prepare("SELECT name, type, sql FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
    .all() as SchemaObject[];
}

/** Lists the tables and views of the database with their row counts. */
export const listTables = tool({
  name: 'list_tables',
  description: 'List the tables and views of the SQLite database, with the number of rows of each table. Start here to see what data exists.',
  parameters: z.object({}),
  execute: (_args, ctx) => {
    const db = openReadOnly(databasePath(ctx.context));
    try {
      return schemaObjects(db).map((object) => {
        const count = object.type === 'table' ? (db.prepare(`SELECT count(*) AS n FROM ${quoteIdentifier(object.name)}`).get() as { n: number }).n : undefined;
        return count === undefined ? { name: object.name, type: object.type } : { name: object.name, type: object.type, rows: count };
      });
    } finally {
      db.close();
    }
  },
});

/** Describes one table: columns, keys, indexes, row count and a few sample rows. */
export const describeTable = tool({
  name: 'describe_table',
  description:
    'Describe one table or view: its columns (name, type, not-null, default, primary key), foreign keys, indexes, ' +
    'row count and 3 sample rows. Use it before writing SQL against a table.',
  parameters: z.object({ table: z.string().min(1).max(128).describe('Table or view name, as listed by list_tables') }),
  execute: ({ table }, ctx) => {
    const db = openReadOnly(databasePath(ctx.context));
    try {
      const objects = schemaObjects(db);
      const object = objects.find((o) => o.name === table) ?? objects.find((o) => o.name.toLowerCase() === table.toLowerCase());
      if (!object) throw new Error(`no table or view named "${table}"; known: ${objects.map((o) => o.name).join(', ') || '(none)'}`);
      const columns = db.prepare('SELECT name, type, "notnull" AS not_null, dflt_value AS default_value, pk FROM pragma_table_info(?) ORDER BY cid').all(object.name) as {
        name: string;
        type: string;
        not_null: number;
        default_value: string | null;
        pk: number;
      }[];
      const foreignKeys = db.prepare('SELECT "from" AS column, "table" AS references_table, "to" AS references_column FROM pragma_foreign_key_list(?)').all(object.name);
      const indexes = db.prepare('SELECT name, "unique" AS is_unique FROM pragma_index_list(?)').all(object.name);
      const rows = (db.prepare(`SELECT count(*) AS n FROM ${quoteIdentifier(object.name)}`).get() as { n: number }).n;
      const sample = db.prepare(`SELECT * FROM ${quoteIdentifier(object.name)} LIMIT 3`).all();
      return {
        name: object.name,
        type: object.type,
        rows,
        columns: columns.map((c) => ({ name: c.name, type: c.type, not_null: c.not_null === 1, default: c.default_value, primary_key: c.pk > 0 })),
        foreign_keys: foreignKeys,
        indexes,
        sample_rows: sample,
        create_sql: object.sql,
      };
    } finally {
      db.close();
    }
  },
});

/** The first keyword of a statement, after leading whitespace and comments, uppercased. */
export function leadingKeyword(sql: string): string {
  const stripped = sql.replace(/^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?(?:\*\/|$))*/, '');
  return (/^[A-Za-z]+/.exec(stripped)?.[0] ?? '').toUpperCase();
}

const ALLOWED_FIRST_WORDS = new Set(['SELECT', 'WITH', 'VALUES', 'EXPLAIN']);

const runSqlParams = z.object({
  sql: z.string().min(1).max(20_000).describe('One SQLite query (SELECT / WITH … SELECT). Use ? placeholders for values from the user'),
  params: z
    .array(z.union([z.string(), z.number(), z.boolean(), z.null()]))
    .max(100)
    .optional()
    .describe('Values for the ? placeholders, in order'),
});

/** Runs one read-only SQL query and returns columns and up to 200 rows. */
export const runSql = tool({
  name: 'run_sql',
  description:
    'Run one read-only SQLite query (SELECT, WITH … SELECT, VALUES or EXPLAIN) and get {columns, rows, row_count, truncated}. ' +
    'At most 200 rows come back (truncated: true when there were more; aggregate or add LIMIT). Writes, ATTACH, PRAGMA ' +
    'and multiple statements are refused. Pass user-supplied values as params with ? placeholders.',
  parameters: runSqlParams,
  execute: async ({ sql, params }, ctx) => {
    const keyword = leadingKeyword(sql);
    if (!ALLOWED_FIRST_WORDS.has(keyword)) {
      throw new SqlQueryError(`refused: only read-only queries starting with SELECT, WITH, VALUES or EXPLAIN are allowed (got ${keyword || 'nothing'})`, 'AGENTLIB_NOT_QUERY');
    }
    const result = await runReadOnlyQuery({
      file: databasePath(ctx.context),
      sql,
      params,
      maxRows: MAX_ROWS,
      maxCellChars: 2_000,
      timeoutMs: contextNumber(ctx.context, 'sqlTimeoutMs') ?? DEFAULT_TIMEOUT_MS,
      signal: ctx.signal,
    });
    let rows = result.rows;
    let truncated = result.truncated;
    let note = truncated ? `only the first ${MAX_ROWS} rows are shown; aggregate, filter or add LIMIT` : undefined;
    while (rows.length > 0 && JSON.stringify(rows).length > MAX_RESULT_CHARS) {
      rows = rows.slice(0, Math.floor(rows.length / 2));
      truncated = true;
      note = `rows were cut to ${rows.length} to keep the result under ${MAX_RESULT_CHARS} characters; select fewer columns or rows`;
    }
    return { columns: result.columns, rows, row_count: rows.length, truncated, ...(note === undefined ? {} : { note }) };
  },
});
