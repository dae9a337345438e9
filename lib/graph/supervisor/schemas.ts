import { z } from 'zod';
import { FINISH } from './types.js';

/** Agent names as a zod enum (a name the model makes up fails validation and is retried). */
function names(agents: readonly string[]): z.ZodEnum<Record<string, string>> {
  return z.enum(agents as [string, ...string[]]);
}

/** One schema per list of agent names (a structured call prepares its schema's JSON Schema once per schema object). */
function memo<T>(build: (agents: readonly string[]) => T): (agents: readonly string[]) => T {
  const cache = new Map<string, T>();
  return (agents) => {
    const key = agents.join('\u0000');
    let schema = cache.get(key);
    if (schema === undefined) {
      schema = build(agents);
      if (cache.size < 64) cache.set(key, schema);
    }
    return schema;
  };
}

/** plan_and_execute: the planner's plan (an empty list on a replan: nothing more can be done). */
export const planSchema = memo((agents) =>
  z.object({
    steps: z.array(z.object({ agent: names(agents).describe('the agent that does this step'), task: z.string().min(1).describe('what the agent must do, self-contained') })),
  }),
);

/** round_robin: what each agent answers on its turn. */
export const turnSchema = z.object({
  response: z.string().describe('your contribution'),
  complete: z.boolean().describe('true when the whole task is now done'),
});

/** dynamic: the router's choice. */
export const routeSchema = memo((agents) =>
  z.object({
    next: z.enum([FINISH, ...agents] as [string, ...string[]]).describe(`the agent to act next, or ${FINISH}`),
    task: z.string().optional().describe('the instruction for that agent'),
    answer: z.string().optional().describe(`with ${FINISH}: the final answer`),
    reason: z.string().optional(),
  }),
);

/** magentic: the task ledger. */
export const taskLedgerSchema = z.object({
  facts: z.array(z.string()).describe('facts given or verified, facts to look up, educated guesses'),
  plan: z.array(z.string()).min(1).describe('the plan, one step per entry'),
});

/** magentic: the progress ledger of one round. */
export const progressSchema = memo((agents) =>
  z.object({
    requestSatisfied: z.boolean(),
    progressMade: z.boolean().describe('false when the last rounds were stuck, repeated, or failed'),
    nextAgent: names(agents),
    instruction: z.string().describe('the instruction for the next agent'),
    reason: z.string(),
    finalAnswer: z.string().optional().describe('when the request is satisfied: the final answer'),
  }),
);
