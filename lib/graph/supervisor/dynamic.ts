import type { DecideEnv, Decision } from './coordinator.js';
import { structuredCall } from './coordinator.js';
import { routePrompt } from './prompts.js';
import { routeSchema } from './schemas.js';
import { FINISH, type SupervisorRecord } from './types.js';

/**
 * dynamic: before every turn one router call (executorModel) answers with structured output
 * `{ next, task, answer }`; `next` is an agent name or FINISH (validated against the names, never
 * read from trailing words of free text).
 */
export async function decideDynamic(record: SupervisorRecord, env: DecideEnv): Promise<Decision> {
  const route = await structuredCall(env, env.executor, routePrompt(record, env.agents), routeSchema(env.agents.map((a) => a.name)));
  if (route.next === FINISH) return { kind: 'finish', answer: route.answer };
  return { kind: 'turn', agent: route.next, task: route.task !== undefined && route.task.trim() !== '' ? route.task : record.request };
}
