import type { AgentResult } from '../agent/result.js';
import type { RunStatus } from '../events/types.js';
import type { RunRequest } from './run-request.js';

/** The 200 body of `POST /invoke`, and the data of the `run-end` SSE event. */
export interface InvokeResponse {
  content: string;
  tool_calls: { tool_name: string; parameters: Record<string, unknown> }[];
  iterations: number;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; cost_usd: number };
  run_id: string;
  /** How the run ended: `completed`, `max-iterations`, `budget-exceeded`, … */
  status: RunStatus;
  session_id?: string;
  parsed?: unknown;
  metadata?: Record<string, unknown>;
}

/** Builds the /invoke body from a run's result (REFERENCE.md §2 shape, snake_case). */
export function toInvokeResponse(result: AgentResult, request: RunRequest): InvokeResponse {
  const usage = result.usage;
  const body: InvokeResponse = {
    content: result.content,
    tool_calls: result.toolCalls.map((call) => ({ tool_name: call.toolName, parameters: call.parameters })),
    iterations: result.iterations,
    usage: {
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      total_tokens: usage.totalTokens,
      cost_usd: usage.totalCostUsd,
    },
    run_id: result.runId,
    status: result.status,
  };
  if (request.sessionId !== undefined) body.session_id = request.sessionId;
  if (result.parsed !== undefined) body.parsed = result.parsed;
  if (request.metadata !== undefined) body.metadata = request.metadata;
  return body;
}
