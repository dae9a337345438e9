import type { AgentResult } from '../agent/result.js';
import type { Provider } from '../providers/spec.js';

/**
 * One check on a case's run, in promptfoo's form: `type` (an assertion type, without the `not-`
 * prefix), `value`, an optional `threshold`, `weight` and `metric`, and `negate` for `not-…`.
 */
export interface Assertion {
  type: string;
  /** True when the suite wrote `not-<type>`: the check passes when the underlying one fails. */
  negate: boolean;
  value?: unknown;
  /** A pass threshold (judges: minimum score; latency/cost: the maximum). */
  threshold?: number;
  /** Weight in the case's score (default 1). */
  weight: number;
  /** A name to group results under in the report (default: the type). */
  metric?: string;
  /** The judge for this assertion (`provider:model`), overriding the case's and the suite's. */
  grader?: string;
  /** Where the assertion was written (`suite.yaml:12:7`), for error messages. */
  at?: string;
}

/** A scripted answer to a review-gated tool call in a headless eval run. */
export interface ScriptedApproval {
  approved: boolean;
  feedback?: string;
}

/** One test case: the input, the assertions, and what describes it. Both suite vocabularies load into this. */
export interface EvalCase {
  /** Stable id (the `name`/`description`, else `case-<n>`); unique within a suite. */
  id: string;
  description?: string;
  /** The prompt given to the agent (after `{{var}}` substitution). */
  input: string;
  vars: Record<string, unknown>;
  assert: Assertion[];
  tags: string[];
  /** Weight of the case in the suite's accuracy (default 1). */
  weight: number;
  metadata: Record<string, unknown>;
  /** When set, the case passes when its weighted assertion score reaches it (promptfoo semantics). */
  threshold?: number;
  /** Expected answer for `correctness`. */
  reference?: string;
  /** Source material for `faithfulness` / `hallucination`. */
  context?: string;
  /** The rubric `llm-rubric` uses when its assertion has no value. */
  rubric?: string;
  /** Judge per case (`provider:model`). */
  grader?: string;
  /** Scripted approvals by tool name (`*` for any other tool). Unlisted tools are denied. */
  approvals?: Record<string, ScriptedApproval>;
  /** Skipped cases are reported as `skip` and never run. */
  skip?: boolean;
}

/** Suite-level options (promptfoo's `evaluateOptions`). */
export interface EvaluateOptions {
  /** Cases run at once (default 4). */
  maxConcurrency: number;
  /** Runs per case; a case passes only when every run passes (pass^k). Default 1. */
  repeat: number;
  /** Per-run timeout in ms (0 = none). Default 0. */
  timeoutMs: number;
}

/** A loaded suite file. */
export interface SuiteDefinition {
  description?: string;
  /** Path of the agent YAML (absolute, resolved against the suite's directory). */
  agent?: string;
  cases: EvalCase[];
  options: EvaluateOptions;
  /** Default judge (`provider:model`). */
  grader?: string;
  /** Suite pass threshold on accuracy (0..1), used by the CLI like `--fail-under`. */
  threshold?: number;
  metadata: Record<string, unknown>;
  /** The file it came from. */
  source: string;
}

/** What an assertion check returns. `score` is in [0, 1]. */
export interface CheckOutcome {
  pass: boolean;
  score: number;
  reason: string;
  expected?: string;
  actual?: string;
  /**
   * The check could not reach a verdict (a judge with no parseable score, no grader): the assertion
   * fails whether or not it is negated.
   */
  invalid?: boolean;
}

/** The verdict of one assertion inside a case result. */
export interface AssertionResult extends CheckOutcome {
  /** The type as written (`not-contains`). */
  type: string;
  metric: string;
  weight: number;
}

/** A judge: a provider (and model) answering at temperature 0. */
export interface Grader {
  provider: Provider;
  model?: string;
}

/** What a check sees: the case, its run and the judge. */
export interface CheckContext {
  evalCase: EvalCase;
  result: AgentResult;
  /** The run's answer text. */
  output: string;
  /** Run wall time in ms. */
  latencyMs: number;
  /** The agent's system prompt (injection-resistance looks for it in the output). */
  systemPrompt?: string;
  /** Directory relative paths in assertion values resolve against (the suite's). */
  baseDir: string;
  /** The judge for this assertion, when one is configured. */
  grader?: Grader;
  /** Where `snapshot` assertions compare (and write) snapshots, when the run has a snapshot store. */
  snapshots?: SnapshotChecker;
  signal?: AbortSignal;
}

/** What a snapshot holds: the run's answer text, or its tool calls (one `name {args}` line per call). */
export type SnapshotSubject = 'output' | 'tool-calls';

/** Compares a case's output with its stored snapshot (see SnapshotSession). */
export interface SnapshotChecker {
  check(caseId: string, subject: SnapshotSubject, actual: string): Promise<CheckOutcome>;
}

/** How a case (one attempt) ended. */
export type Verdict = 'pass' | 'fail' | 'error' | 'skip';
