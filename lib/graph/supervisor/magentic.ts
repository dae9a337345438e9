import type { DecideEnv, Decision } from './coordinator.js';
import { structuredCall } from './coordinator.js';
import { ledgerPrompt, progressPrompt } from './prompts.js';
import { progressSchema, taskLedgerSchema } from './schemas.js';
import type { ProgressLedger, SupervisorRecord, SupervisorTurn } from './types.js';

/**
 * magentic: a task ledger (facts and plan, plannerModel) written once, then a progress ledger per
 * round (executorModel) that says whether the request is satisfied, whether progress is being made,
 * and who acts next. A round is unproductive when the ledger says no progress or the last turn
 * failed; after `maxStalls` unproductive rounds in a row it replans: `supervisor-replan`, a new task
 * ledger, a fresh progress ledger, the stall count back to 0.
 */
export async function decideMagentic(record: SupervisorRecord, env: DecideEnv, failure: SupervisorTurn | undefined): Promise<Decision> {
  const names = env.agents.map((a) => a.name);
  record.ledger ??= await structuredCall(env, env.planner, ledgerPrompt(record, env.agents, undefined), taskLedgerSchema);
  let progress = await judge(record, env, names);
  if (progress.requestSatisfied) return { kind: 'finish', answer: progress.finalAnswer };
  if (record.turns.length > 0) record.stalls = !progress.progressMade || failure !== undefined ? record.stalls + 1 : 0;
  if (record.stalls >= env.maxStalls) {
    const reason = `${record.stalls} rounds without progress${failure ? ` (${failure.agent} failed: ${failure.error?.message ?? ''})` : ''}: ${progress.reason}`;
    await env.ctx.emit('supervisor-replan', { supervisor: env.supervisor, strategy: record.strategy, round: record.turns.length, reason });
    record.ledger = await structuredCall(env, env.planner, ledgerPrompt(record, env.agents, reason), taskLedgerSchema);
    record.replans++;
    record.stalls = 0;
    progress = await judge(record, env, names);
    if (progress.requestSatisfied) return { kind: 'finish', answer: progress.finalAnswer };
  }
  return { kind: 'turn', agent: progress.nextAgent, task: progress.instruction };
}

async function judge(record: SupervisorRecord, env: DecideEnv, names: readonly string[]): Promise<ProgressLedger> {
  const parsed = await structuredCall(env, env.executor, progressPrompt(record, env.agents), progressSchema(names));
  const progress: ProgressLedger = { requestSatisfied: parsed.requestSatisfied, progressMade: parsed.progressMade, nextAgent: parsed.nextAgent, instruction: parsed.instruction, reason: parsed.reason, ...(parsed.finalAnswer === undefined ? {} : { finalAnswer: parsed.finalAnswer }) };
  (record.progress ??= []).push(progress);
  return progress;
}
