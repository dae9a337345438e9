import type { AgentTraceJSON } from '../trace/trace-step.js';
import type { AssertionResult, Verdict } from './types.js';

/** One run of a case. */
export interface AttemptResult {
  verdict: Verdict;
  /** Weighted assertion score in [0, 1] (0 for errors). */
  score: number;
  output: string;
  latencyMs: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  costUsd: number;
  iterations: number;
  toolCalls: string[];
  assertions: AssertionResult[];
  /** Why the run errored (provider failure, timeout, a judge that could not be reached). */
  error?: string;
  /** The run's trace (JSON form), for `agentlib eval view` and the trace viewer. */
  trace?: AgentTraceJSON;
}

/** The result of one case over all its runs (pass^k: it passes only if every run passed). */
export interface CaseResult {
  id: string;
  description?: string;
  input: string;
  tags: string[];
  weight: number;
  metadata: Record<string, unknown>;
  verdict: Verdict;
  /** Mean of the runs' scores. */
  score: number;
  /** True when some runs passed and some did not. */
  flaky: boolean;
  /** Why the case was skipped. */
  skipReason?: string;
  attempts: AttemptResult[];
}

/** The case's verdict from its runs: pass when all pass, fail when any failed, else error. */
export function combineAttempts(attempts: readonly AttemptResult[]): Pick<CaseResult, 'verdict' | 'score' | 'flaky'> {
  if (attempts.length === 0) return { verdict: 'skip', score: 0, flaky: false };
  const passes = attempts.filter((a) => a.verdict === 'pass').length;
  const verdict = passes === attempts.length ? 'pass' : attempts.some((a) => a.verdict === 'fail') ? 'fail' : 'error';
  const score = attempts.reduce((sum, a) => sum + a.score, 0) / attempts.length;
  return { verdict, score, flaky: passes > 0 && passes < attempts.length };
}
