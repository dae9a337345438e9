import type { Agent } from '../../agent/agent.js';
import { GraphExecutionError } from '../../core/errors/graph-execution-error.js';
import { assistantMessage } from '../../core/message.js';
import type { ReadonlyGraphState, NodeUpdate } from '../state.js';
import type { NodeContext } from '../types.js';
import type { DecideEnv, Decision } from './coordinator.js';
import { decideDynamic } from './dynamic.js';
import { decideMagentic } from './magentic.js';
import { decidePlanAndExecute } from './plan-and-execute.js';
import { workerPrompt } from './prompts.js';
import { decideRoundRobin } from './round-robin.js';
import { turnSchema } from './schemas.js';
import { SUPERVISOR_KEY, SupervisorStrategy, type SupervisorRecord, type SupervisorTurn } from './types.js';

/** What the supervisor's nodes share. */
export interface SupervisorSetup {
  readonly name: string;
  readonly strategy: SupervisorStrategy;
  readonly agents: readonly Agent[];
  readonly planner: Agent;
  readonly executor: Agent;
  readonly maxRounds: number;
  readonly maxStalls: number;
}

/** The supervisor's record in `state` (a fresh one on the first step). */
export function readRecord(state: ReadonlyGraphState, strategy: SupervisorStrategy): SupervisorRecord {
  const stored = state.data[SUPERVISOR_KEY] as SupervisorRecord | undefined;
  if (stored !== undefined) return structuredClone(stored);
  const first = state.messages.find((m) => m.role === 'user');
  return { strategy, request: first?.content ?? '', turns: [], errorsSeen: 0, stalls: 0, replans: 0 };
}

/**
 * The supervisor node: accounts for a turn that did not come back (its agent failed and ErrorPolicy
 * SKIP let the run go on), then finishes (round_robin completion, maxRounds) or lets the strategy
 * decide; a decision to hand work on sets `next`, which the conditional edge routes to.
 */
export function supervisorNode(setup: SupervisorSetup) {
  return async (state: ReadonlyGraphState, ctx: NodeContext): Promise<NodeUpdate> => {
    const record = readRecord(state, setup.strategy);
    let failure: SupervisorTurn | undefined;
    if (record.next !== undefined) {
      const error = [...state.errors.slice(record.errorsSeen)].reverse().find((e) => e.node === record.next?.agent);
      failure = { round: record.turns.length + 1, agent: record.next.agent, task: record.next.task, status: 'failed', output: '', error: error ? { name: error.name, message: error.message } : { name: 'Error', message: 'the agent did not answer' } };
      record.turns.push(failure);
      delete record.next;
    }
    record.errorsSeen = state.errors.length;
    const last = record.turns.at(-1);
    let decision: Decision;
    if (last?.status === 'ok' && last.complete === true) decision = { kind: 'finish' };
    else if (record.turns.length >= setup.maxRounds) {
      record.finish = 'max-rounds';
      decision = { kind: 'finish' };
    } else {
      decision = await decide(record, { ctx, supervisor: setup.name, agents: setup.agents, planner: setup.planner, executor: setup.executor, maxStalls: setup.maxStalls }, failure);
    }
    if (decision.kind === 'turn') {
      record.next = { agent: decision.agent, task: decision.task };
      return { data: { [SUPERVISOR_KEY]: record } };
    }
    const answer = finalAnswer(setup.name, record, decision.answer);
    record.finish ??= 'finished';
    record.answer = answer;
    return { output: answer, data: { [SUPERVISOR_KEY]: record } };
  };
}

function decide(record: SupervisorRecord, env: DecideEnv, failure: SupervisorTurn | undefined): Promise<Decision> | Decision {
  switch (record.strategy) {
    case SupervisorStrategy.PLAN_AND_EXECUTE:
      return decidePlanAndExecute(record, env, failure);
    case SupervisorStrategy.ROUND_ROBIN:
      return decideRoundRobin(record, env);
    case SupervisorStrategy.DYNAMIC:
      return decideDynamic(record, env);
    case SupervisorStrategy.MAGENTIC:
      return decideMagentic(record, env, failure);
  }
}

/**
 * The run's answer: the coordinator's, else the last turn's output. A failed last turn is never
 * an answer: the run fails with a GraphExecutionError naming the agent.
 */
function finalAnswer(name: string, record: SupervisorRecord, answer: string | undefined): string {
  if (answer !== undefined && answer.trim() !== '') return answer;
  const last = record.turns.at(-1);
  if (last === undefined) throw new GraphExecutionError(`supervisor "${name}" finished before any agent answered`, { node: 'supervisor' });
  if (last.status === 'failed') throw new GraphExecutionError(`supervisor "${name}" stopped after agent "${last.agent}" failed: ${last.error?.message ?? ''}`, { node: last.agent });
  return last.output;
}

/** An agent's node: runs the task the supervisor handed it (round_robin: with `{ response, complete }` structured output). */
export function workerNode(setup: SupervisorSetup, agent: Agent) {
  return async (state: ReadonlyGraphState, ctx: NodeContext): Promise<NodeUpdate> => {
    const record = readRecord(state, setup.strategy);
    const next = record.next;
    if (next?.agent !== agent.name) throw new GraphExecutionError(`agent "${agent.name}" ran without a task from supervisor "${setup.name}"`, { node: agent.name });
    const roundRobin = setup.strategy === SupervisorStrategy.ROUND_ROBIN;
    const result = await ctx.runAgent(agent, workerPrompt(record, next.task), roundRobin ? { responseFormat: turnSchema } : {});
    const parsed = roundRobin ? (result.parsed as { response: string; complete: boolean } | undefined) : undefined;
    const output = parsed ? parsed.response : result.content;
    const turn: SupervisorTurn = { round: record.turns.length + 1, agent: agent.name, task: next.task, status: 'ok', output, ...(parsed?.complete === true ? { complete: true } : {}) };
    record.turns.push(turn);
    delete record.next;
    const message = assistantMessage(output);
    message.name = agent.name;
    return { output, messages: [message], data: { [SUPERVISOR_KEY]: record } };
  };
}
