import type { CaseResult } from '../case-result.js';
import type { Verdict } from '../types.js';

/** Totals of a report. */
export interface EvalSummary {
  cases: number;
  counts: Record<Verdict, number>;
  /** Weighted share of passing cases among the cases that ran (skips excluded), 0..1. */
  accuracy: number;
  /** Share of runs that passed (with repeat k, pass@1 over all runs). */
  runPassRate: number;
  flaky: string[];
  latencyMs: { p50: number; p95: number; p99: number; mean: number };
  tokens: { prompt: number; completion: number; total: number };
  costUsd: number;
  costPerCaseUsd: number;
  /** Failed assertions by metric (type unless `metric` was set), most frequent first. */
  failuresByMetric: { metric: string; failures: number }[];
}

/** What the renderers read from a report (EvalReport implements it). */
export interface ReportView {
  readonly suite: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly repeat: number;
  readonly cancelled: boolean;
  readonly cases: readonly CaseResult[];
  readonly summary: EvalSummary;
}
