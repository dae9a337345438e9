import type { AgentResult } from '../../lib/agent/result.js';
import type { AgentEvent } from '../../lib/events/types.js';

/**
 * The trace of one chat turn (`agentlib chat` saves it to its trace store): every event of the
 * turn goes to `handle`; `finish` saves the finished trace and resolves with where it went as shown
 * to the user (the run id), or undefined when none was saved.
 */
export interface TurnTrace {
  handle(event: AgentEvent): void;
  finish(result: AgentResult | undefined): Promise<string | undefined>;
}

/** Starts the trace of a new turn. */
export type TurnTraces = () => TurnTrace;
