import type { Checkpoint } from '../../graph/checkpoint/types.js';
import type { GraphResult, PendingInterrupt } from '../../graph/types.js';

/** A pending interrupt as the HTTP API shows it. */
export interface InterruptJSON {
  id: string;
  node: string;
  path: string[];
  prompt: string;
  payload?: unknown;
}

/** The 200 body of a served graph's `/invoke` and `/resume`, and the data of the `result` SSE event. */
export interface GraphInvokeResponse {
  /** `completed`, `interrupted`, `budget-exceeded`, `cancelled`. */
  status: string;
  /** The last node's output as text. */
  content: string;
  thread_id: string;
  run_id: string;
  interrupted: boolean;
  /** The first pending interrupt's id (answer it with POST /resume), or null. */
  interrupt_id: string | null;
  /** Every pending interrupt, with its prompt and payload. */
  interrupts: InterruptJSON[];
  /** The nodes run so far on the thread, in order. */
  history: string[];
  steps: number;
  checkpoint_id: string | null;
  /** Usage summed over every node, across resumes. */
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; cost_usd: number };
  /** The graph's `state.data` (JSON: checkpoints hold the same). */
  data: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

function interruptJSON(pending: PendingInterrupt): InterruptJSON {
  return { id: pending.id, node: pending.node, path: pending.path, prompt: pending.prompt, ...(pending.payload === undefined ? {} : { payload: pending.payload }) };
}

/** Builds the /invoke body of a graph run (snake_case, as the agent API). */
export function toGraphInvokeResponse(result: GraphResult, metadata: Record<string, unknown> | undefined): GraphInvokeResponse {
  const usage = result.totalUsage;
  return {
    status: result.status,
    content: result.content,
    thread_id: result.threadId,
    run_id: result.runId,
    interrupted: result.interrupted,
    interrupt_id: result.interruptId ?? null,
    interrupts: result.interrupts.map(interruptJSON),
    history: result.state.history,
    steps: result.steps,
    checkpoint_id: result.checkpointId ?? null,
    usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.totalTokens, cost_usd: usage.totalCostUsd },
    data: result.state.data,
    ...(metadata === undefined ? {} : { metadata }),
  };
}

/** One checkpoint in `GET /threads/:id/checkpoints` (without its state: `GET /checkpoints/:id` has it). */
export function checkpointSummary(c: Checkpoint): Record<string, unknown> {
  return { id: c.id, thread_id: c.threadId, parent_id: c.parentId, graph: c.graph, step: c.step, node: c.node, source: c.source, status: c.status, created_at: c.createdAt, interrupts: c.interrupts.map(interruptJSON) };
}
