import { acquireSqlite, migrateSqlite, type SqliteHandle } from '../../storage/index.js';
import { checkRunId } from './run-id.js';
import { parseTraceJSON, parseTraceJSONL, traceToJSONL } from '../jsonl.js';
import type { AgentTraceJSON } from '../trace-step.js';
import { checkTraceQuery } from './check-query.js';
import { summarizeTrace } from './trace-summary.js';
import type { PruneOptions, TraceQuery, TraceStore, TraceSummary } from './types.js';

/**
 * Schema of the trace store (migrations[i] takes version i to i + 1): the summary columns list
 * and filter on, indexed; the trace itself as its JSONL text; tags in their own table.
 */
const MIGRATIONS = [
  `CREATE TABLE agentlib_traces (
     run_id TEXT PRIMARY KEY,
     parent_run_id TEXT,
     agent TEXT,
     provider TEXT,
     model TEXT,
     status TEXT,
     started_at INTEGER NOT NULL,
     summary TEXT NOT NULL,
     body TEXT NOT NULL
   );
   CREATE INDEX agentlib_traces_started ON agentlib_traces (started_at);
   CREATE INDEX agentlib_traces_agent ON agentlib_traces (agent, started_at);
   CREATE INDEX agentlib_traces_parent ON agentlib_traces (parent_run_id);
   CREATE TABLE agentlib_trace_tags (
     run_id TEXT NOT NULL REFERENCES agentlib_traces (run_id) ON DELETE CASCADE,
     tag TEXT NOT NULL,
     PRIMARY KEY (tag, run_id)
   );`,
];

/**
 * Traces in a SQLite file (default `.agentlib/agentlib.db`, shared through the storage module):
 * `list` filters and sorts in SQL on indexed columns (agent, start time, status, parent run, tag),
 * so it stays fast with many thousands of traces. Each trace is stored as its JSONL text.
 */
export class SQLiteTraceStore implements TraceStore {
  readonly path: string;
  readonly #handle: SqliteHandle;
  readonly #sql;

  constructor(path: string) {
    this.#handle = acquireSqlite(path);
    this.path = this.#handle.path;
    const { db } = this.#handle;
    migrateSqlite(db, 'traces', MIGRATIONS);
    const insert = db.prepare(
      `INSERT INTO agentlib_traces (run_id, parent_run_id, agent, provider, model, status, started_at, summary, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id) DO UPDATE SET parent_run_id = excluded.parent_run_id, agent = excluded.agent, provider = excluded.provider,
         model = excluded.model, status = excluded.status, started_at = excluded.started_at, summary = excluded.summary, body = excluded.body`,
    );
    const clearTags = db.prepare('DELETE FROM agentlib_trace_tags WHERE run_id = ?');
    const addTag = db.prepare('INSERT OR IGNORE INTO agentlib_trace_tags (run_id, tag) VALUES (?, ?)');
    this.#sql = {
      save: db.transaction((trace: AgentTraceJSON, summary: TraceSummary) => {
        insert.run(trace.runId, summary.parentRunId ?? null, summary.agentName ?? null, summary.provider ?? null, summary.model ?? null, summary.status ?? null, summary.startedAt, JSON.stringify(summary), traceToJSONL(trace));
        clearTags.run(trace.runId);
        for (const tag of summary.tags) addTag.run(trace.runId, tag);
      }),
      get: db.prepare('SELECT body FROM agentlib_traces WHERE run_id = ?'),
      delete: db.prepare('DELETE FROM agentlib_traces WHERE run_id = ?'),
      deleteTags: clearTags,
      prune: db.prepare('DELETE FROM agentlib_traces WHERE started_at < ?'),
      pruneTags: db.prepare('DELETE FROM agentlib_trace_tags WHERE run_id IN (SELECT run_id FROM agentlib_traces WHERE started_at < ?)'),
      db,
    };
  }

  async save(trace: AgentTraceJSON): Promise<void> {
    const copy = parseTraceJSON(trace);
    checkRunId(copy.runId);
    this.#sql.save(copy, summarizeTrace(copy));
  }

  async get(runId: string): Promise<AgentTraceJSON | undefined> {
    const row = this.#sql.get.get(checkRunId(runId)) as { body: string } | undefined;
    return row === undefined ? undefined : parseTraceJSONL(row.body);
  }

  async list(query: TraceQuery = {}): Promise<TraceSummary[]> {
    checkTraceQuery(query);
    // Column names are fixed here; only values are parameters (REFERENCE.md §7).
    const filters: Array<[string, unknown]> = [
      ['agent = ?', query.agent],
      ['status = ?', query.status],
      ['parent_run_id = ?', query.parentRunId],
      ['started_at >= ?', query.since],
      ['started_at < ?', query.until],
      ['run_id IN (SELECT run_id FROM agentlib_trace_tags WHERE tag = ?)', query.tag],
    ];
    const used = filters.filter(([, value]) => value !== undefined);
    const where = used.map(([clause]) => clause);
    const params: unknown[] = used.map(([, value]) => value);
    const sql = `SELECT summary FROM agentlib_traces${where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`} ORDER BY started_at DESC, run_id ASC${query.limit === undefined ? '' : ' LIMIT ?'}`;
    if (query.limit !== undefined) params.push(query.limit);
    return (this.#sql.db.prepare(sql).all(...params) as { summary: string }[]).map((row) => JSON.parse(row.summary) as TraceSummary);
  }

  async delete(runId: string): Promise<boolean> {
    const id = checkRunId(runId);
    this.#sql.deleteTags.run(id);
    return this.#sql.delete.run(id).changes > 0;
  }

  async prune({ before }: PruneOptions): Promise<number> {
    this.#sql.pruneTags.run(before);
    return this.#sql.prune.run(before).changes;
  }

  async close(): Promise<void> {
    this.#handle.release();
  }
}
