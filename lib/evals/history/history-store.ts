import type { ReportView } from '../report/report-view.js';

/** One eval run in a suite's history: the totals of its report. */
export interface EvalHistoryEntry {
  suite: string;
  /** When the run started (ISO 8601). */
  startedAt: string;
  cases: number;
  accuracy: number;
  pass: number;
  fail: number;
  error: number;
  skip: number;
  costUsd: number;
  latencyP50Ms: number;
  durationMs: number;
}

/**
 * Eval runs over time, for trends: `record` appends a report's totals, `list` returns a suite's
 * runs, oldest first (the newest `limit` when given). Backends: memory, SQLite (default
 * `.agentlib/agentlib.db`), chosen by URL with {@link openHistoryStore}.
 */
export interface HistoryStore {
  record(report: ReportView): Promise<EvalHistoryEntry>;
  list(suite: string, options?: { limit?: number }): Promise<EvalHistoryEntry[]>;
  close(): void;
}

/** The history entry of a report. */
export function historyEntry(report: ReportView): EvalHistoryEntry {
  const s = report.summary;
  return {
    suite: report.suite,
    startedAt: report.startedAt,
    cases: s.cases,
    accuracy: s.accuracy,
    pass: s.counts.pass,
    fail: s.counts.fail,
    error: s.counts.error,
    skip: s.counts.skip,
    costUsd: s.costUsd,
    latencyP50Ms: s.latencyMs.p50,
    durationMs: report.durationMs,
  };
}

/** Checks `limit` (an integer ≥ 1, or undefined). */
export function checkLimit(limit: number | undefined): void {
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new RangeError(`HistoryStore.list: limit must be an integer ≥ 1 (got ${limit})`);
}
