import type { DecideEnv, Decision } from './coordinator.js';
import type { SupervisorRecord } from './types.js';

/** The task of every turn after the first. */
export const CONTINUE_TASK = 'Continue the work on the request: build on the results so far and add your part. Say complete: true once the whole request is done.';

/**
 * round_robin: the agents take turns in order (no coordinator call); each answers with structured
 * output `{ response, complete }` and the run finishes at the first `complete: true` (checked by the
 * supervisor node) or at maxRounds.
 */
export function decideRoundRobin(record: SupervisorRecord, env: DecideEnv): Decision {
  const agent = env.agents[record.turns.length % env.agents.length];
  if (agent === undefined) return { kind: 'finish' };
  return { kind: 'turn', agent: agent.name, task: record.turns.length === 0 ? record.request : CONTINUE_TASK };
}
