import type { Agent } from '../../agent/agent.js';
import type { SupervisorRecord, SupervisorTurn, TaskLedger } from './types.js';

/** "- name: description" lines of the agents (their system prompts' first line, when any). */
export function roster(agents: readonly Agent[]): string {
  return agents.map((a) => `- ${a.name}${describe(a)}`).join('\n');
}

function describe(agent: Agent): string {
  const first = agent.systemPrompt.split('\n').find((line) => line.trim() !== '');
  return first === undefined ? '' : `: ${first.trim().slice(0, 200)}`;
}

/** The turns so far, one block each (failures say so). */
export function transcript(turns: readonly SupervisorTurn[]): string {
  if (turns.length === 0) return '(none yet)';
  return turns
    .map((t) => (t.status === 'ok' ? `[${t.round}] ${t.agent} (task: ${t.task}):\n${t.output}` : `[${t.round}] ${t.agent} FAILED (task: ${t.task}): ${t.error?.name ?? 'Error'}: ${t.error?.message ?? ''}`))
    .join('\n\n');
}

/** What an agent receives on its turn: its task, the request, and every earlier result. */
export function workerPrompt(record: SupervisorRecord, task: string): string {
  const earlier = record.turns.length === 0 ? '' : `\n\nResults so far:\n${transcript(record.turns)}`;
  return `${task}\n\nThe overall request: ${record.request}${earlier}`;
}

export function planPrompt(record: SupervisorRecord, agents: readonly Agent[], failure: SupervisorTurn | undefined): string {
  const head = `Request: ${record.request}\n\nAgents:\n${roster(agents)}\n\n`;
  if (failure === undefined) return `${head}Write a plan: an ordered list of steps, each naming one agent and a self-contained task. Later steps will see earlier results.`;
  return `${head}Done so far:\n${transcript(record.turns)}\n\nStep "${failure.task}" by ${failure.agent} failed. Write a new plan for what remains (an empty list if nothing more can be done).`;
}

export function routePrompt(record: SupervisorRecord, agents: readonly Agent[]): string {
  return `Request: ${record.request}\n\nAgents:\n${roster(agents)}\n\nTurns so far:\n${transcript(record.turns)}\n\nChoose the agent to act next and its task, or FINISH with the final answer when the request is answered.`;
}

export function ledgerPrompt(record: SupervisorRecord, agents: readonly Agent[], reason: string | undefined): string {
  const head = `Request: ${record.request}\n\nAgents:\n${roster(agents)}\n\n`;
  if (reason === undefined) return `${head}Write the task ledger: the facts (given, to look up, to derive, guesses) and a plan.`;
  return `${head}The previous plan stalled (${reason}). Turns so far:\n${transcript(record.turns)}\n\nPrevious ledger:\n${ledgerText(record.ledger)}\n\nWrite an updated task ledger with a new plan.`;
}

export function progressPrompt(record: SupervisorRecord, agents: readonly Agent[]): string {
  return `Request: ${record.request}\n\nAgents:\n${roster(agents)}\n\nTask ledger:\n${ledgerText(record.ledger)}\n\nTurns so far:\n${transcript(record.turns)}\n\nFill the progress ledger: is the request satisfied, is progress being made, who acts next with which instruction.`;
}

function ledgerText(ledger: TaskLedger | undefined): string {
  if (ledger === undefined) return '(none)';
  return `Facts:\n${ledger.facts.map((f) => `- ${f}`).join('\n')}\nPlan:\n${ledger.plan.map((p, i) => `${i + 1}. ${p}`).join('\n')}`;
}
