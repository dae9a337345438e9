import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Agent } from '../../agent/agent.js';
import { GraphExecutionError } from '../../core/errors/graph-execution-error.js';
import type { NodeContext } from '../types.js';

/** What a strategy decides works with. */
export interface DecideEnv {
  readonly ctx: NodeContext;
  readonly supervisor: string;
  readonly agents: readonly Agent[];
  /** Plans and task ledgers (plannerModel). */
  readonly planner: Agent;
  /** Routing and progress ledgers (executorModel). */
  readonly executor: Agent;
  readonly maxStalls: number;
}

/** What the supervisor does next. */
export type Decision = { kind: 'turn'; agent: string; task: string } | { kind: 'finish'; answer?: string | undefined };

/** One structured call of a coordinator agent, as a nested run of the supervisor node; returns the validated object. */
export async function structuredCall<S extends StandardSchemaV1>(env: DecideEnv, agent: Agent, prompt: string, schema: S): Promise<StandardSchemaV1.InferOutput<S>> {
  const result = await env.ctx.runAgent(agent, prompt, { responseFormat: schema });
  if (result.parsed === undefined) throw new GraphExecutionError(`supervisor "${env.supervisor}": ${agent.name} returned no structured output`, { node: env.ctx.node });
  return result.parsed;
}
