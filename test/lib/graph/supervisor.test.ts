import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { GraphExecutionError } from '../../../lib/core/errors/graph-execution-error.js';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import type { AgentEvent } from '../../../lib/events/types.js';
import { ErrorPolicy, InMemoryCheckpointStore, SupervisorAgent } from '../../../lib/graph/index.js';
import { ScriptedProvider, type ScriptedReply } from '../../../lib/providers/scripted.js';
import { TraceRecorder } from '../../../lib/trace/recorder.js';
import { eventLog, testRuntime } from '../../support/agent-harness.js';

const usage = { promptTokens: 10, completionTokens: 5 };

function worker(name: string, replies: ScriptedReply[]): { agent: Agent; provider: ScriptedProvider } {
  const provider = new ScriptedProvider({ replies, usage });
  return { agent: new Agent({ name, provider, systemPrompt: `You are ${name}.`, runtime: testRuntime() }), provider };
}

/** The coordinator's provider: each reply is the JSON of one structured call. */
function coordinator(...objects: unknown[]): ScriptedProvider {
  return new ScriptedProvider({ replies: objects.map((o) => ({ text: JSON.stringify(o), usage })) });
}

const lastUser = (provider: ScriptedProvider, i: number): string => String(provider.requests[i]?.messages.findLast((m) => m.role === 'user')?.content ?? '');
const failing = (): ScriptedReply => ({ error: new ProviderError('upstream 400: bad request', { provider: 'scripted', status: 400, retryable: false }) });

describe('SupervisorAgent: plan_and_execute', () => {
  test('the planned task reaches the named agent; later steps see earlier results; usage sums every call', async () => {
    const researcher = worker('researcher', ['Tides come from the moon.']);
    const writer = worker('writer', ['A poem: the moon pulls the sea.']);
    const provider = coordinator({ steps: [{ agent: 'researcher', task: 'Find out what causes tides' }, { agent: 'writer', task: 'Write a two-line poem from the findings' }] });
    const team = new SupervisorAgent({ agents: [researcher.agent, writer.agent], provider, strategy: 'plan_and_execute', plannerModel: 'big-planner' });
    const result = await team.run('A poem about tides');
    assert.equal(result.status, 'completed');
    assert.equal(result.content, 'A poem: the moon pulls the sea.');
    assert.equal(provider.requests[0]?.model, 'big-planner');
    assert.match(lastUser(researcher.provider, 0), /^Find out what causes tides/);
    const writerPrompt = lastUser(writer.provider, 0);
    assert.match(writerPrompt, /^Write a two-line poem from the findings/);
    assert.match(writerPrompt, /researcher.*\n?Tides come from the moon\./s, 'the second step sees the first result');
    assert.deepEqual(result.turns.map((t) => [t.agent, t.status]), [['researcher', 'ok'], ['writer', 'ok']]);
    assert.deepEqual(result.plan?.map((s) => s.agent), ['researcher', 'writer']);
    assert.deepEqual(result.state.history, ['supervisor', 'researcher', 'supervisor', 'writer', 'supervisor']);
    assert.equal(result.totalUsage.totalTokens, 45, 'planner + two agents, 15 tokens each');
  });

  test('a failing agent under ABORT fails the run: graph-error event, error step in the trace, never a success', async () => {
    const researcher = worker('researcher', [failing()]);
    const writer = worker('writer', ['unused']);
    const provider = coordinator({ steps: [{ agent: 'researcher', task: 'research' }, { agent: 'writer', task: 'write' }] });
    let recorder: TraceRecorder | undefined;
    const log = eventLog();
    const observer = { onEvent: (e: AgentEvent): void => { if (!recorder && e.type === 'graph-start') recorder = new TraceRecorder({ runId: e.runId }); recorder?.handle(e); log.observer.onEvent(e); } };
    const team = new SupervisorAgent({ agents: [researcher.agent, writer.agent], provider, strategy: 'plan_and_execute', observers: [observer] });
    await assert.rejects(team.run('go'), (e: unknown) => GraphExecutionError.isInstance(e) && e.node === 'researcher' && /upstream 400/.test(e.message));
    assert.equal(writer.provider.requests.length, 0);
    assert.equal(log.of('graph-error')[0]?.node, 'researcher');
    const runEnd = log.of('run-end').find((e) => e.agentName === 'researcher');
    assert.equal(runEnd?.status, 'error');
    const errors = recorder?.trace.steps.filter((s) => s.status === 'error') ?? [];
    assert.ok(errors.some((s) => s.type === 'error' && s.name === 'researcher'), 'the graph error is an error step');
    assert.ok(errors.some((s) => s.type === 'llm_call'), "the agent's failed call is an error step");
  });

  test('under SKIP the failure is recorded and the planner replans (supervisor-replan); the new step runs', async () => {
    const researcher = worker('researcher', [failing()]);
    const backup = worker('librarian', ['Tides: the moon.']);
    const provider = coordinator(
      { steps: [{ agent: 'researcher', task: 'research tides' }] },
      { steps: [{ agent: 'librarian', task: 'look tides up in the books' }] },
    );
    const log = eventLog();
    const team = new SupervisorAgent({ agents: [researcher.agent, backup.agent], provider, strategy: 'plan_and_execute', errorPolicy: ErrorPolicy.SKIP, observers: [log.observer] });
    const result = await team.run('tides');
    assert.equal(result.content, 'Tides: the moon.');
    assert.deepEqual(result.turns.map((t) => [t.agent, t.status]), [['researcher', 'failed'], ['librarian', 'ok']]);
    assert.equal(result.failures[0]?.error?.name, 'ProviderError');
    assert.equal(result.state.errors[0]?.node, 'researcher');
    assert.equal(result.nodeResults.researcher?.[0]?.status, 'skipped');
    assert.equal(result.replans, 1);
    const replan = log.of('supervisor-replan');
    assert.equal(replan.length, 1);
    assert.match(replan[0]?.reason ?? '', /researcher.*failed: .*upstream 400/);
    assert.match(lastUser(provider, 1), /FAILED.*upstream 400/s, 'the planner sees the failure');
    assert.deepEqual(result.plan?.map((s) => s.agent), ['researcher', 'librarian']);
  });

  test('a plan naming an unknown agent fails validation (structured output), it is not guessed', async () => {
    const a = worker('a', ['x']);
    const provider = coordinator({ steps: [{ agent: 'ghost', task: 't' }] }, { steps: [{ agent: 'ghost', task: 't' }] }, { steps: [{ agent: 'ghost', task: 't' }] }, { steps: [{ agent: 'ghost', task: 't' }] });
    const team = new SupervisorAgent({ agents: [a.agent], provider, strategy: 'plan_and_execute' });
    await assert.rejects(team.run('go'), (e: unknown) => GraphExecutionError.isInstance(e) && e.node === 'supervisor');
    assert.equal(a.provider.requests.length, 0);
  });
});

describe('SupervisorAgent: round_robin', () => {
  test('agents take turns until one says complete (structured output)', async () => {
    const a = worker('alice', [JSON.stringify({ response: 'draft 1', complete: false }), JSON.stringify({ response: 'never', complete: true })]);
    const b = worker('bob', [JSON.stringify({ response: 'final draft', complete: true })]);
    const provider = coordinator();
    const team = new SupervisorAgent({ agents: [a.agent, b.agent], provider, strategy: 'round_robin' });
    const result = await team.run('Write a slogan');
    assert.equal(result.content, 'final draft');
    assert.equal(result.finish, 'finished');
    assert.deepEqual(result.turns.map((t) => t.agent), ['alice', 'bob']);
    assert.equal(provider.requests.length, 0, 'round_robin makes no coordinator call');
    assert.ok(a.provider.requests[0]?.responseFormat, 'each turn asks for structured output');
    assert.match(lastUser(b.provider, 0), /draft 1/);
  });

  test('maxRounds ends the run with the last answer', async () => {
    const turn = (n: number): string => JSON.stringify({ response: `turn ${n}`, complete: false });
    const a = worker('alice', [turn(1), turn(3)]);
    const b = worker('bob', [turn(2)]);
    const team = new SupervisorAgent({ agents: [a.agent, b.agent], provider: coordinator(), strategy: 'round_robin', maxRounds: 3 });
    const result = await team.run('go');
    assert.equal(result.finish, 'max-rounds');
    assert.equal(result.content, 'turn 3');
    assert.equal(result.turns.length, 3);
  });
});

describe('SupervisorAgent: dynamic', () => {
  test('a structured router picks agents then FINISH; a reply ending in an agent name is not a route', async () => {
    const math = worker('math', ['4']);
    const prose = worker('prose', ['Two plus two is four.']);
    const provider = coordinator(
      { next: 'math', task: 'compute 2+2' },
      { next: 'prose', task: 'say it in words' },
      { next: 'FINISH', answer: 'Two plus two is four (4).' },
    );
    const team = new SupervisorAgent({ agents: [math.agent, prose.agent], provider, strategy: 'dynamic', executorModel: 'fast-router' });
    const result = await team.run('What is 2+2, in words?');
    assert.equal(result.content, 'Two plus two is four (4).');
    assert.deepEqual(result.turns.map((t) => t.agent), ['math', 'prose']);
    assert.equal(lastUser(math.provider, 0).split('\n')[0], 'compute 2+2');
    assert.ok(provider.requests.every((r) => r.model === 'fast-router' && r.responseFormat !== undefined));

    // Free text that merely ends with an agent's name is invalid structured output: the run fails.
    const loose = new SupervisorAgent({ agents: [math.agent], provider: new ScriptedProvider({ replies: ['I think the next one is math'], respond: () => 'still math' }), strategy: 'dynamic' });
    await assert.rejects(loose.run('2+2'), (e: unknown) => GraphExecutionError.isInstance(e) && e.node === 'supervisor');
  });

  test('under SKIP the router sees a failure and picks another agent', async () => {
    const flaky = worker('flaky', [failing()]);
    const steady = worker('steady', ['done right']);
    const provider = coordinator({ next: 'flaky', task: 'do it' }, { next: 'steady', task: 'do it instead' }, { next: 'FINISH' });
    const team = new SupervisorAgent({ agents: [flaky.agent, steady.agent], provider, strategy: 'dynamic', errorPolicy: ErrorPolicy.SKIP });
    const result = await team.run('task');
    assert.equal(result.content, 'done right');
    assert.match(lastUser(provider, 1), /flaky FAILED/);
    assert.deepEqual(result.failures.map((f) => f.agent), ['flaky']);
  });

  test('FINISH right after a failure without an answer fails the run instead of passing the failure off as success', async () => {
    const flaky = worker('flaky', [failing()]);
    const team = new SupervisorAgent({ agents: [flaky.agent], provider: coordinator({ next: 'flaky', task: 'x' }, { next: 'FINISH' }), strategy: 'dynamic', errorPolicy: ErrorPolicy.SKIP });
    await assert.rejects(team.run('task'), /stopped after agent "flaky" failed/);
  });
});

describe('SupervisorAgent: magentic', () => {
  const progress = (over: Partial<{ requestSatisfied: boolean; progressMade: boolean; nextAgent: string; instruction: string; finalAnswer: string }>): Record<string, unknown> => ({ requestSatisfied: false, progressMade: true, nextAgent: 'coder', instruction: 'work', reason: 'r', ...over });

  test('task ledger, progress ledgers, a stall → replan after maxStalls unproductive rounds, then success', async () => {
    const coder = worker('coder', ['attempt 1', 'attempt 2']);
    const tester = worker('tester', ['all tests pass']);
    const planner = coordinator(
      { facts: ['the bug is in parse()'], plan: ['coder fixes parse'] },
      progress({ nextAgent: 'coder', instruction: 'fix parse()' }),
      progress({ progressMade: false, nextAgent: 'coder', instruction: 'try again' }),
      progress({ progressMade: false, nextAgent: 'coder', instruction: 'again' }),
      { facts: ['the bug is in parse()', 'coder is stuck'], plan: ['tester writes a failing test first'] },
      progress({ nextAgent: 'tester', instruction: 'write and run the tests' }),
      progress({ requestSatisfied: true, finalAnswer: 'Fixed: tests pass.' }),
    );
    const log = eventLog();
    let recorder: TraceRecorder | undefined;
    const observer = { onEvent: (e: AgentEvent): void => { if (!recorder && e.type === 'graph-start') recorder = new TraceRecorder({ runId: e.runId }); recorder?.handle(e); log.observer.onEvent(e); } };
    const replans: unknown[] = [];
    const team = new SupervisorAgent({ agents: [coder.agent, tester.agent], provider: planner, strategy: 'magentic', maxStalls: 2, observers: [observer, { onSupervisorReplan: (e: AgentEvent) => void replans.push(e) }] });
    const result = await team.run('Fix the parser bug');
    assert.equal(result.content, 'Fixed: tests pass.');
    assert.deepEqual(result.turns.map((t) => t.agent), ['coder', 'coder', 'tester']);
    assert.equal(result.replans, 1);
    assert.deepEqual(result.ledger?.plan, ['tester writes a failing test first']);
    const events = log.of('supervisor-replan');
    assert.equal(events.length, 1);
    assert.equal(events[0]?.round, 2);
    assert.match(events[0]?.reason ?? '', /2 rounds without progress/);
    assert.equal(replans.length, 1, 'the observer method onSupervisorReplan is called');
    const step = recorder?.trace.steps.find((s) => s.metadata?.['event'] === 'supervisor-replan');
    assert.ok(step, 'the replan is a trace step');
    assert.match(lastUser(tester.provider, 0), /^write and run the tests/);
    assert.match(lastUser(planner, 4), /stalled/);
  });

  test('a failing agent counts as an unproductive round (SKIP)', async () => {
    const coder = worker('coder', [failing(), failing()]);
    const tester = worker('tester', ['ok now']);
    const planner = coordinator(
      { facts: [], plan: ['code'] },
      progress({ nextAgent: 'coder' }),
      progress({ nextAgent: 'coder' }),
      progress({ nextAgent: 'coder' }),
      { facts: [], plan: ['test instead'] },
      progress({ nextAgent: 'tester' }),
      progress({ requestSatisfied: true }),
    );
    const team = new SupervisorAgent({ agents: [coder.agent, tester.agent], provider: planner, strategy: 'magentic', errorPolicy: ErrorPolicy.SKIP });
    const result = await team.run('x');
    assert.equal(result.replans, 1);
    assert.equal(result.content, 'ok now', 'no final answer in the ledger: the last successful turn');
    assert.equal(result.failures.length, 2);
  });
});

describe('SupervisorAgent: graph runtime', () => {
  test('checkpoints after every step; cancellation reaches the working agent; bad options are refused', async () => {
    const store = new InMemoryCheckpointStore();
    const a = worker('a', ['A']);
    const team = new SupervisorAgent({ agents: [a.agent], provider: coordinator({ steps: [{ agent: 'a', task: 't' }] }), strategy: 'plan_and_execute', checkpointStore: store });
    const result = await team.run('go', { threadId: 'th1' });
    const history = await team.graph.history('th1');
    assert.ok(history.length >= result.steps, "a checkpoint after every step");
    assert.equal(history[0]?.state.data.__supervisor__ !== undefined, true, 'the record is checkpointed with the state');

    const controller = new AbortController();
    const slow = new Agent({ name: 'slow', provider: new ScriptedProvider({ replies: [{ text: 'late', delayMs: 60_000 }] }), runtime: testRuntime() });
    const team2 = new SupervisorAgent({ agents: [slow], provider: coordinator({ steps: [{ agent: 'slow', task: 't' }] }), strategy: 'plan_and_execute', observers: [{ onLlmStart: (e: AgentEvent) => { if ('node' in e && e.node === 'slow') controller.abort(); } }] });
    const cancelled = await team2.run('go', { signal: controller.signal });
    assert.equal(cancelled.status, 'cancelled');

    assert.throws(() => new SupervisorAgent({ agents: [a.agent], provider: coordinator(), strategy: 'hierarchical' as never }), /unknown supervisor strategy "hierarchical"/);
    assert.throws(() => new SupervisorAgent({ agents: [a.agent, a.agent], provider: coordinator(), strategy: 'dynamic' }), /unique names/);
  });
});
