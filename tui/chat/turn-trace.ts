import type { AgentResult } from '../../lib/agent/result.js';
import type { AgentEvent } from '../../lib/events/types.js';

/**
 * The trace file of one chat turn, saved as the turn runs (`agentlib chat` passes the trace
 * writer of `agentlib run`): every event of the turn goes to `handle`; `finish` writes the
 * finished trace and resolves with its path as shown to the user (undefined when none was saved).
 */
export interface TurnTrace {
  handle(event: AgentEvent): void;
  finish(result: AgentResult | undefined): Promise<string | undefined>;
}

/** Starts the trace of a new turn. */
export type TurnTraces = () => TurnTrace;
