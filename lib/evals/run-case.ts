import type { Agent } from '../agent/agent.js';
import { failedRunResult } from '../agent/execute-run.js';
import type { AgentResult } from '../agent/result.js';
import type { ApprovalHandler } from '../agent/types.js';
import { waitObserver, type EvalWait } from './attempt-wait.js';
import type { AttemptResult } from './case-result.js';
import { CHECKS } from './checks/registry.js';
import { evaluateAssertion } from './evaluate-assertion.js';
import type { AssertionResult, EvalCase, Grader, SnapshotChecker } from './types.js';

/** What one attempt needs besides the case. */
export interface AttemptContext {
  /** The agent (a promise when a per-case factory makes it: a rejection makes the attempt an error). */
  agent: Agent | Promise<Agent>;
  /** The judge for an assertion (its own, the case's, else the suite's), or undefined when none is set. */
  graderFor: (spec: string | undefined) => Promise<Grader | undefined>;
  baseDir: string;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  now: () => number;
  keepTrace: boolean;
  /** Where `snapshot` assertions compare, when the suite has a snapshot store. */
  snapshots?: SnapshotChecker;
  /** Told what the attempt waits on (model, tool, retry backoff, checks), from the run's own events. */
  onWait?: (wait: EvalWait) => void;
}

/** Scripted approvals: the tool's entry, else `*`, else deny (a headless run has nobody to ask). */
export function scriptedApprover(evalCase: EvalCase): ApprovalHandler {
  return (request) => {
    const answer = evalCase.approvals?.[request.toolName] ?? evalCase.approvals?.['*'];
    if (answer === undefined) return { approved: false, feedback: `No scripted approval for ${request.toolName} in eval case "${evalCase.id}".` };
    return answer.feedback === undefined ? answer.approved : { approved: answer.approved, feedback: answer.feedback };
  };
}

function weightedScore(results: readonly AssertionResult[]): number {
  const total = results.reduce((sum, r) => sum + r.weight, 0);
  if (total === 0) return results.every((r) => r.pass) ? 1 : 0;
  return results.reduce((sum, r) => sum + r.score * r.weight, 0) / total;
}

function usageOf(result: AgentResult | undefined): Pick<AttemptResult, 'promptTokens' | 'completionTokens' | 'totalTokens' | 'costUsd' | 'iterations' | 'toolCalls'> {
  return {
    promptTokens: result?.usage.promptTokens ?? 0,
    completionTokens: result?.usage.completionTokens ?? 0,
    totalTokens: result?.usage.totalTokens ?? 0,
    costUsd: result?.usage.totalCostUsd ?? 0,
    iterations: result?.iterations ?? 0,
    toolCalls: result?.toolCalls.map((c) => c.toolName) ?? [],
  };
}

/**
 * Runs a case once: the agent answers the input (history untouched, scripted approvals, a
 * timeout), then every assertion is checked in order. A run that fails, times out or whose judge
 * cannot be reached is an `error`; a run whose checks do not all pass (or whose weighted score is
 * under the case's `threshold`) is a `fail`.
 */
export async function runAttempt(evalCase: EvalCase, ctx: AttemptContext): Promise<AttemptResult> {
  const started = ctx.now();
  const timeout = ctx.timeoutMs > 0 ? AbortSignal.timeout(ctx.timeoutMs) : undefined;
  const signals = [ctx.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
  let result: AgentResult | undefined;
  const failure = (message: string, run: AgentResult | undefined): AttemptResult => ({
    verdict: 'error',
    score: 0,
    output: run?.content ?? '',
    latencyMs: ctx.now() - started,
    ...usageOf(run),
    assertions: [],
    error: message,
    ...(ctx.keepTrace && run !== undefined ? { trace: run.trace.toJSON() } : {}),
  });
  let agent: Agent;
  try {
    agent = await ctx.agent;
  } catch (error) {
    return failure(`no agent for this case: ${error instanceof Error ? error.message : String(error)}`, undefined);
  }
  try {
    result = await agent.ask(evalCase.input, {
      approve: scriptedApprover(evalCase),
      context: { ...evalCase.vars },
      ...(signal === undefined ? {} : { signal }),
      ...(ctx.onWait === undefined ? {} : { observers: [waitObserver(ctx.onWait, ctx.now)] }),
    });
  } catch (error) {
    const run = failedRunResult(error);
    if (timeout?.aborted === true && ctx.signal?.aborted !== true) return failure(`timed out after ${ctx.timeoutMs} ms`, run);
    return failure(error instanceof Error ? `${error.name}: ${error.message}` : String(error), run);
  }
  if (result.status === 'cancelled') return failure(timeout?.aborted === true ? `timed out after ${ctx.timeoutMs} ms` : 'cancelled', result);
  const latencyMs = ctx.now() - started;
  const assertions: AssertionResult[] = [];
  ctx.onWait?.({ on: 'checks' });
  try {
    for (const assertion of evalCase.assert) {
      // Only judges need a grader: a suite without them never creates (or needs a key for) one.
      const grader = CHECKS.get(assertion.type)?.kind === 'judge' ? await ctx.graderFor(assertion.grader ?? evalCase.grader) : undefined;
      assertions.push(
        await evaluateAssertion(assertion, {
          evalCase,
          result,
          output: result.content,
          latencyMs,
          systemPrompt: agent.systemPrompt,
          baseDir: ctx.baseDir,
          ...(grader === undefined ? {} : { grader }),
          ...(ctx.snapshots === undefined ? {} : { snapshots: ctx.snapshots }),
          ...(signal === undefined ? {} : { signal }),
        }),
      );
    }
  } catch (error) {
    return failure(`an assertion could not be checked: ${error instanceof Error ? error.message : String(error)}`, result);
  }
  const score = weightedScore(assertions);
  const pass = evalCase.threshold === undefined ? assertions.every((a) => a.pass) : score >= evalCase.threshold && !assertions.some((a) => a.invalid === true);
  return {
    verdict: pass ? 'pass' : 'fail',
    score,
    output: result.content,
    latencyMs,
    ...usageOf(result),
    assertions,
    ...(ctx.keepTrace ? { trace: result.trace.toJSON() } : {}),
  };
}
