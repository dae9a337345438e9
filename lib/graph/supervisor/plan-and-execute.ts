import type { DecideEnv, Decision } from './coordinator.js';
import { structuredCall } from './coordinator.js';
import { planPrompt } from './prompts.js';
import { planSchema } from './schemas.js';
import type { SupervisorRecord, SupervisorTurn } from './types.js';

/**
 * plan_and_execute: the planner's structured plan, one step per turn in order; when a step failed
 * (ErrorPolicy SKIP) the planner replans what remains (`supervisor-replan`); the plan's end finishes.
 */
export async function decidePlanAndExecute(record: SupervisorRecord, env: DecideEnv, failure: SupervisorTurn | undefined): Promise<Decision> {
  const names = env.agents.map((a) => a.name);
  if (record.plan === undefined) {
    const plan = await structuredCall(env, env.planner, planPrompt(record, env.agents, undefined), planSchema(names));
    record.plan = plan.steps;
    record.cursor = 0;
  } else if (failure !== undefined) {
    const reason = `step ${record.cursor ?? 0} (${failure.agent}) failed: ${failure.error?.message ?? ''}`;
    await env.ctx.emit('supervisor-replan', { supervisor: env.supervisor, strategy: record.strategy, round: record.turns.length, reason });
    const plan = await structuredCall(env, env.planner, planPrompt(record, env.agents, failure), planSchema(names));
    record.plan = [...record.plan.slice(0, record.cursor ?? 0), ...plan.steps];
    record.replans++;
  }
  const cursor = record.cursor ?? 0;
  const step = record.plan[cursor];
  if (step === undefined) return { kind: 'finish' };
  record.cursor = cursor + 1;
  return { kind: 'turn', agent: step.agent, task: step.task };
}
