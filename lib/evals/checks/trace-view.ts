import type { AgentResult } from '../../agent/result.js';
import { isStepType, type StepType } from '../../trace/step-type.js';

/** One tool call as the run's trace recorded it, with its full arguments from the result. */
export interface TracedToolCall {
  name: string;
  args: Record<string, unknown>;
  ok: boolean;
}

/**
 * The tool calls of a run, in the order they started, read from its own trace (`tool_execution`
 * steps, nested runs excluded), with the arguments the model sent (the trace keeps a redacted
 * summary; `result.toolCalls` keeps them whole, matched by call id).
 */
export function tracedToolCalls(result: AgentResult): TracedToolCall[] {
  const byId = new Map(result.toolCalls.map((call) => [call.id, call.parameters]));
  return result.trace.steps
    .filter((step) => step.type === 'tool_execution' && step.runId === result.runId)
    .sort((a, b) => a.startedAt - b.startedAt)
    .map((step) => {
      const callId = step.metadata?.['callId'];
      const args = typeof callId === 'string' ? byId.get(callId) : undefined;
      return { name: step.name ?? '', args: args ?? {}, ok: step.status === 'ok' };
    });
}

/** Steps of `type` in the run's trace (all types when undefined). */
export function countSteps(result: AgentResult, type: StepType | undefined): number {
  return type === undefined ? result.trace.steps.length : result.trace.steps.filter((step) => step.type === type).length;
}

/** True for one of the 27 step type strings. */
export { isStepType };
