import { migrateSqlite } from '../../storage/migrate-sqlite.js';
import { acquireSqlite, type SqliteHandle } from '../../storage/sqlite-pool.js';
import type { ReportView } from '../report/report-view.js';
import { checkLimit, historyEntry, type EvalHistoryEntry, type HistoryStore } from './history-store.js';

const MIGRATIONS = [
  `CREATE TABLE eval_history (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     suite TEXT NOT NULL,
     started_at TEXT NOT NULL,
     cases INTEGER NOT NULL,
     accuracy REAL NOT NULL,
     pass INTEGER NOT NULL,
     fail INTEGER NOT NULL,
     error INTEGER NOT NULL,
     skip INTEGER NOT NULL,
     cost_usd REAL NOT NULL,
     latency_p50_ms REAL NOT NULL,
     duration_ms REAL NOT NULL
   );
   CREATE INDEX eval_history_suite ON eval_history (suite, id);`,
];

interface Row {
  suite: string;
  started_at: string;
  cases: number;
  accuracy: number;
  pass: number;
  fail: number;
  error: number;
  skip: number;
  cost_usd: number;
  latency_p50_ms: number;
  duration_ms: number;
}

function fromRow(row: Row): EvalHistoryEntry {
  return { suite: row.suite, startedAt: row.started_at, cases: row.cases, accuracy: row.accuracy, pass: row.pass, fail: row.fail, error: row.error, skip: row.skip, costUsd: row.cost_usd, latencyP50Ms: row.latency_p50_ms, durationMs: row.duration_ms };
}

/** A HistoryStore in SQLite through the storage module (one shared connection per file, versioned schema `eval-history`). */
export class SqliteHistoryStore implements HistoryStore {
  readonly #handle: SqliteHandle;

  constructor(path: string) {
    this.#handle = acquireSqlite(path);
    migrateSqlite(this.#handle.db, 'eval-history', MIGRATIONS, path);
  }

  record(report: ReportView): Promise<EvalHistoryEntry> {
    const e = historyEntry(report);
    this.#handle.db
      .prepare('INSERT INTO eval_history (suite, started_at, cases, accuracy, pass, fail, error, skip, cost_usd, latency_p50_ms, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(e.suite, e.startedAt, e.cases, e.accuracy, e.pass, e.fail, e.error, e.skip, e.costUsd, e.latencyP50Ms, e.durationMs);
    return Promise.resolve(e);
  }

  list(suite: string, options: { limit?: number } = {}): Promise<EvalHistoryEntry[]> {
    checkLimit(options.limit);
    const rows = (
      options.limit === undefined
        ? this.#handle.db.prepare('SELECT * FROM eval_history WHERE suite = ? ORDER BY id').all(suite)
        : this.#handle.db.prepare('SELECT * FROM (SELECT * FROM eval_history WHERE suite = ? ORDER BY id DESC LIMIT ?) ORDER BY id').all(suite, options.limit)
    ) as Row[];
    return Promise.resolve(rows.map(fromRow));
  }

  close(): void {
    this.#handle.release();
  }
}
