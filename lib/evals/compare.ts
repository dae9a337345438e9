import type { EvalReport } from './eval-report.js';
import type { Verdict } from './types.js';

/** A case whose verdict changed between two reports. */
export interface VerdictChange {
  id: string;
  from: Verdict;
  to: Verdict;
}

/** What changed from a baseline report to a current one. */
export interface RegressionResult {
  /** Cases that passed in the baseline and do not now (skips excluded). */
  regressions: VerdictChange[];
  /** Cases that did not pass in the baseline and pass now. */
  improvements: VerdictChange[];
  added: string[];
  removed: string[];
  accuracy: { baseline: number; current: number; delta: number };
  costUsd: { baseline: number; current: number; delta: number };
  latencyP50Ms: { baseline: number; current: number; delta: number };
  /** True when a case regressed or accuracy fell by more than the margin. */
  regressed: boolean;
}

/**
 * Compares a report with a baseline: a regression is a case that passed and now does not (fail
 * or error; a case now skipped is not compared), or accuracy down by more than `margin` (default 0).
 */
export function compareReports(baseline: EvalReport, current: EvalReport, options: { margin?: number } = {}): RegressionResult {
  const margin = options.margin ?? 0;
  const before = new Map(baseline.cases.map((c) => [c.id, c.verdict]));
  const after = new Map(current.cases.map((c) => [c.id, c.verdict]));
  const regressions: VerdictChange[] = [];
  const improvements: VerdictChange[] = [];
  for (const [id, to] of after) {
    const from = before.get(id);
    if (from === undefined || to === 'skip' || from === 'skip') continue;
    if (from === 'pass' && to !== 'pass') regressions.push({ id, from, to });
    if (from !== 'pass' && to === 'pass') improvements.push({ id, from, to });
  }
  const delta = (b: number, c: number): { baseline: number; current: number; delta: number } => ({ baseline: b, current: c, delta: c - b });
  const accuracy = delta(baseline.accuracy, current.accuracy);
  return {
    regressions,
    improvements,
    added: [...after.keys()].filter((id) => !before.has(id)),
    removed: [...before.keys()].filter((id) => !after.has(id)),
    accuracy,
    costUsd: delta(baseline.summary.costUsd, current.summary.costUsd),
    latencyP50Ms: delta(baseline.summary.latencyMs.p50, current.summary.latencyMs.p50),
    regressed: regressions.length > 0 || accuracy.delta < -margin - 1e-12,
  };
}
