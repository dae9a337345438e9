import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { CancellationToken } from '../../../lib/core/cancellation-token.js';
import { GraphExecutionError } from '../../../lib/core/errors/graph-execution-error.js';
import type { AgentEvent } from '../../../lib/events/types.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { AgentGraph, ContextMode, END, ErrorPolicy, MergePolicy, Send, type ReadonlyGraphState } from '../../../lib/graph/index.js';
import { eventLog, testRuntime } from '../../support/agent-harness.js';

function agent(name: string, replies: string[], usage = { promptTokens: 10, completionTokens: 5 }): { agent: Agent; provider: ScriptedProvider } {
  const provider = new ScriptedProvider({ replies: replies.map((text) => ({ text, usage })) });
  return { agent: new Agent({ name, provider, runtime: testRuntime() }), provider };
}

describe('AgentGraph: building and running', () => {
  test('a chain of agents passes each answer on; nodeResults carry usage; totalUsage sums nodes', async () => {
    const a = agent('researcher', ['facts about tides']);
    const b = agent('writer', ['a poem about tides']);
    const graph = AgentGraph.chain(a.agent, b.agent);
    const result = await graph.run('tides');
    assert.equal(result.status, 'completed');
    assert.equal(result.content, 'a poem about tides');
    assert.deepEqual(result.state.history, ['researcher', 'writer']);
    assert.equal(result.state.data.__last_output__, 'a poem about tides');
    // LAST_MESSAGE: the writer got the researcher's answer.
    assert.equal(b.provider.requests[0]?.messages.at(-1)?.content, 'facts about tides');
    assert.equal(result.nodeResults.researcher?.[0]?.usage.totalTokens, 15);
    assert.equal(result.totalUsage.totalTokens, 30);
    assert.deepEqual(result.state.messages.map((m) => [m.role, m.name ?? null]), [['user', null], ['assistant', 'researcher'], ['assistant', 'writer']]);
  });

  test('function nodes return updates; an unknown key in a returned object is refused, not dropped', async () => {
    const graph = new AgentGraph()
      .addNode('a', () => ({ data: { n: 1 }, output: 'one' }), { next: 'b' })
      .addNode('b', (s) => ({ data: { n: (s.data.n as number) + 1 } }))
      .setEntry('a');
    const result = await graph.run();
    assert.equal(result.state.data.n, 2);
    assert.equal(result.content, 'one', '__last_output__ stays when a node outputs nothing');
    const bad = new AgentGraph().addNode('a', () => ({ dta: { n: 1 } }) as never).setEntry('a');
    await assert.rejects(bad.run(), (e: unknown) => GraphExecutionError.isInstance(e) && /unknown key "dta"/.test(e.message));
  });

  test('structural problems are reported all at once', async () => {
    const graph = new AgentGraph().addNode('a', () => 'x').addEdge('a', 'nowhere').addEdge('ghost', 'a');
    await assert.rejects(graph.run(), (e: unknown) => {
      assert.ok(GraphExecutionError.isInstance(e));
      assert.match(e.message, /no entry node/);
      assert.match(e.message, /"nowhere" is not a node/);
      assert.match(e.message, /"ghost" is not a node/);
      return true;
    });
    assert.throws(() => new AgentGraph().addNode('a', () => 1).addNode('a', () => 2), /already has a node "a"/);
    assert.throws(() => new AgentGraph().addNode('a', () => 1, { next: 'b' }).addEdge('a', 'c'), /already has an edge/);
  });

  test('conditional edges route on the state; END stops', async () => {
    const graph = new AgentGraph()
      .addNode('count', (s) => ({ data: { i: ((s.data.i as number | undefined) ?? 0) + 1 } }))
      .addConditionalEdge('count', (s) => ((s.data.i as number) < 3 ? 'count' : END))
      .setEntry('count');
    const log = eventLog();
    const result = await graph.run(undefined, { observers: [log.observer] });
    assert.equal(result.state.data.i, 3);
    assert.deepEqual(log.of('graph-routing').map((e) => [e.to, e.conditional]), [['count', true], ['count', true], [END, true]]);
  });

  test('scatter: a router returns Sends; targets run in parallel with their payloads; outputs are appended', async () => {
    const seen: unknown[] = [];
    const graph = new AgentGraph()
      .addNode('plan', () => ({ data: { topics: ['a', 'b', 'c'] } }))
      .addConditionalEdge('plan', (s) => (s.data.topics as string[]).map((t) => new Send('research', t)))
      .addNode('research', (_s, ctx) => {
        seen.push(ctx.payload);
        return { data: { findings: `about ${String(ctx.payload)}` }, output: ctx.payload as string };
      }, { next: 'sum' })
      .addNode('sum', (s) => `${(s.data.findings as string[]).join('; ')}`)
      .setEntry('plan');
    const result = await graph.run();
    assert.deepEqual(seen.sort(), ['a', 'b', 'c']);
    assert.deepEqual(result.state.data.findings, ['about a', 'about b', 'about c']);
    assert.equal(result.content, 'about a; about b; about c');
    assert.equal(result.nodeResults.research?.length, 3);
  });

  test('scatter targets with different successors are an error', async () => {
    const graph = new AgentGraph()
      .addNode('s', () => undefined)
      .addConditionalEdge('s', () => ['x', 'y'])
      .addNode('x', () => 'x', { next: 'z' })
      .addNode('y', () => 'y')
      .addNode('z', () => 'z')
      .setEntry('s');
    await assert.rejects(graph.run(), /lead to different nodes/);
  });

  test('parallel groups merge by policy in declaration order, not completion order', async () => {
    const slowFirst = async (): Promise<{ data: Record<string, unknown>; output: string }> => {
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      return { data: { k: 'first', only1: true }, output: 'o1' };
    };
    const second = (): { data: Record<string, unknown>; output: string } => ({ data: { k: 'second' }, output: 'o2' });
    const run = async (merge: MergePolicy): Promise<ReadonlyGraphState> =>
      (await new AgentGraph().addParallelNodes('team', { m1: slowFirst, m2: second }, { merge }).setEntry('team').run(undefined, { data: { k: 'before' } })).state;
    const last = await run(MergePolicy.LAST_WINS);
    assert.equal(last.data.k, 'second');
    assert.equal(last.data.__last_output__, 'o2');
    const first = await run(MergePolicy.FIRST_WINS);
    assert.equal(first.data.k, 'first');
    assert.equal(first.data.__last_output__, 'o1');
    const append = await run(MergePolicy.APPEND);
    assert.deepEqual(append.data.k, ['before', 'first', 'second']);
    assert.deepEqual(append.data.__last_output__, ['o1', 'o2']);
    assert.deepEqual(append.history, ['m1', 'm2']);
  });

  test('subgraph: inputMap / outputMap, messages and usage come back, events nested', async () => {
    const inner = agent('inner_agent', ['inner answer']);
    const child = new AgentGraph({ name: 'child' })
      .addNode('double', (s) => ({ data: { y: (s.data.x as number) * 2 } }), { next: 'talk' })
      .addNode('talk', inner.agent)
      .setEntry('double');
    const parent = new AgentGraph({ name: 'parent' }).addSubgraph('sub', child, { inputMap: { n: 'x' }, outputMap: { y: 'doubled' } }).setEntry('sub');
    const log = eventLog();
    const result = await parent.run('go', { data: { n: 21 }, observers: [log.observer] });
    assert.equal(result.state.data.doubled, 42);
    assert.equal(result.content, 'inner answer');
    assert.equal(result.state.data.y, undefined, 'only mapped keys come back');
    assert.equal(result.totalUsage.totalTokens, 15);
    assert.equal(result.state.messages.at(-1)?.name, 'talk');
    const childStart = log.of('graph-start').find((e) => e.graph === 'child');
    assert.equal(childStart?.parentRunId, result.runId);
    assert.equal(childStart?.node, 'sub');
  });

  test('stream: graph events and nested agent events, with parentRunId and node name', async () => {
    const a = agent('a1', ['hello there']);
    const graph = new AgentGraph({ name: 'g' }).addNode('first', a.agent).setEntry('first');
    const stream = graph.stream('hi');
    const events: AgentEvent[] = [];
    for await (const e of stream) events.push(e);
    const result = await stream.result;
    const types = events.map((e) => e.type);
    assert.equal(types[0], 'graph-start');
    assert.equal(types.at(-1), 'graph-end');
    assert.ok(types.includes('text-delta'));
    const nested = events.filter((e) => e.type === 'run-start' || e.type === 'text-delta' || e.type === 'llm-end');
    assert.ok(nested.length >= 3);
    for (const e of nested) {
      assert.equal(e.parentRunId, result.runId);
      assert.equal(e.node, 'first');
    }
    for (const t of ['node-start', 'node-end', 'graph-routing'] as const) assert.ok(types.includes(t), t);
  });
});

describe('AgentGraph: errors, limits, cancellation', () => {
  test('ErrorPolicy RETRY retries with exponential backoff, then succeeds', async () => {
    let calls = 0;
    const sleeps: number[] = [];
    const graph = new AgentGraph({ sleep: async (ms) => void sleeps.push(ms) })
      .addNode('flaky', () => {
        calls++;
        if (calls < 3) throw new Error(`boom ${calls}`);
        return 'ok';
      }, { errorPolicy: ErrorPolicy.RETRY, retry: { baseDelayMs: 100 } })
      .setEntry('flaky');
    const result = await graph.run();
    assert.equal(result.content, 'ok');
    assert.deepEqual(sleeps, [100, 200]);
    assert.equal(result.nodeResults.flaky?.[0]?.attempts, 3);
  });

  test('RETRY gives up after the limit (3 retries) with a GraphExecutionError naming the node', async () => {
    let calls = 0;
    const graph = new AgentGraph({ errorPolicy: ErrorPolicy.RETRY, sleep: async () => undefined })
      .addNode('bad', () => {
        calls++;
        throw new Error('always');
      })
      .setEntry('bad');
    const log = eventLog();
    await assert.rejects(graph.run(undefined, { observers: [log.observer] }), (e: unknown) => GraphExecutionError.isInstance(e) && e.node === 'bad' && /after 4 attempts: always/.test(e.message));
    assert.equal(calls, 4);
    assert.equal(log.of('graph-error')[0]?.node, 'bad');
    assert.deepEqual(log.types().slice(-2), ['graph-error', 'graph-end']);
  });

  test('SKIP records the error and goes on to the successor; ABORT (default) fails', async () => {
    const graph = new AgentGraph()
      .addNode('bad', () => {
        throw new TypeError('nope');
      }, { errorPolicy: ErrorPolicy.SKIP, next: 'after' })
      .addNode('after', () => 'done')
      .setEntry('bad');
    const result = await graph.run();
    assert.equal(result.content, 'done');
    assert.deepEqual(result.state.errors, [{ node: 'bad', name: 'TypeError', message: 'nope', step: 1 }]);
    assert.equal(result.nodeResults.bad?.[0]?.status, 'skipped');
    const ends: [string, unknown][] = [];
    for await (const event of graph.stream()) if (event.type === 'node-end') ends.push([event.node, event.skipped]);
    assert.deepEqual(ends, [['bad', { name: 'TypeError', message: 'nope' }], ['after', undefined]], 'node-end says which node was skipped, and why');
    const aborting = new AgentGraph().addNode('bad', () => {
      throw new Error('x');
    }).setEntry('bad');
    await assert.rejects(aborting.run(), GraphExecutionError);
  });

  test('maxSteps (default 50) stops a cycle that changes state', async () => {
    const graph = new AgentGraph()
      .addNode('inc', (s) => ({ data: { i: ((s.data.i as number | undefined) ?? 0) + 1 } }))
      .addEdge('inc', 'inc')
      .setEntry('inc');
    await assert.rejects(graph.run(), /maxSteps \(50\)/);
    await assert.rejects(graph.run(undefined, { maxSteps: 5 }), /maxSteps \(5\)/);
  });

  test('budgets count across nodes: the run stops once the total passes maxTotalTokens', async () => {
    const a = agent('a', ['one']);
    const b = agent('b', ['two']);
    const c = agent('c', ['three']);
    const graph = AgentGraph.chain(a.agent, b.agent, c.agent);
    const log = eventLog();
    const result = await graph.run('go', { maxTotalTokens: 25, observers: [log.observer] });
    assert.equal(result.status, 'budget-exceeded');
    assert.deepEqual(result.state.history, ['a', 'b']);
    assert.equal(c.provider.requests.length, 0);
    assert.deepEqual(log.of('budget-exceeded').map((e) => [e.kind, e.limit, e.actual]), [['tokens', 25, 30]]);
  });

  test('the CancellationToken reaches a nested agent mid-call; the run ends cancelled', async () => {
    const token = new CancellationToken();
    const provider = new ScriptedProvider({
      respond: (req) =>
        new Promise((_resolve, reject) => {
          req.signal?.addEventListener('abort', () => reject(req.signal?.reason as Error), { once: true });
          token.set();
        }),
    });
    let afterRan = false;
    const graph = new AgentGraph()
      .addNode('llm', new Agent({ name: 'slow', provider, runtime: testRuntime() }), { next: 'after' })
      .addNode('after', () => {
        afterRan = true;
      })
      .setEntry('llm');
    const result = await graph.run('go', { cancellationToken: token });
    assert.equal(result.status, 'cancelled');
    assert.equal(afterRan, false);
  });

  test('a function node sees the signal abort', async () => {
    const controller = new AbortController();
    const graph = new AgentGraph()
      .addNode('wait', (_s, ctx) => new Promise((_r, reject) => {
        ctx.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        controller.abort();
      }))
      .setEntry('wait');
    const result = await graph.run(undefined, { signal: controller.signal });
    assert.equal(result.status, 'cancelled');
  });
});

describe('AgentGraph: loop and stall detection (REFERENCE §3)', () => {
  test('a hard loop (same node, same whole state) raises GraphExecutionError and emits loop-detected', async () => {
    const graph = new AgentGraph()
      .addNode('a', () => ({ data: { x: 1 } }), { next: 'b' })
      .addNode('b', () => ({ data: { x: 2 } }), { next: 'a' })
      .setEntry('a');
    const log = eventLog();
    await assert.rejects(graph.run(undefined, { observers: [log.observer] }), (e: unknown) => GraphExecutionError.isInstance(e) && /hard loop/.test(e.message));
    assert.equal(log.of('loop-detected').length, 1);
    assert.equal(log.of('loop-detected')[0]?.node, 'a');
  });

  test('the loop hash includes messages: a cycle whose data repeats but whose messages grow is not a loop', async () => {
    const talker = agent('talker', ['same', 'same', 'same']);
    const graph = new AgentGraph()
      .addNode('talk', talker.agent)
      .addConditionalEdge('talk', (s) => (s.messages.length < 4 ? 'talk' : END))
      .setEntry('talk');
    const result = await graph.run('hi');
    assert.equal(result.status, 'completed');
    assert.deepEqual(result.state.history, ['talk', 'talk', 'talk']);
  });

  test('a stall (no state change for 3 steps) emits stall-detected and the run goes on', async () => {
    const noop = (): undefined => undefined;
    const graph = new AgentGraph()
      .addNode('a', noop, { next: 'b' })
      .addNode('b', noop, { next: 'c' })
      .addNode('c', noop, { next: 'd' })
      .addNode('d', () => 'finally')
      .setEntry('a');
    const log = eventLog();
    const result = await graph.run(undefined, { observers: [log.observer] });
    assert.equal(result.status, 'completed');
    assert.equal(result.content, 'finally');
    assert.deepEqual(log.of('stall-detected').map((e) => [e.node, e.stalls]), [['c', 3]]);
  });
});

describe('AgentGraph: context modes', () => {
  test('LAST_N, FULL and CUSTOM shape the agent input; SUMMARY makes one capped provider call', async () => {
    const prefix = new AgentGraph().addNode('p1', () => ({ messages: [{ role: 'assistant', content: 'm1', name: 'p1' }] }), { next: 'p2' }).addNode('p2', () => ({ messages: [{ role: 'assistant', content: 'm2', name: 'p2' }] }));
    const build = (options: Parameters<AgentGraph['addNode']>[2]): { graph: AgentGraph; provider: ScriptedProvider } => {
      const a = agent('reader', ['ok']);
      const graph = new AgentGraph().addNode('p1', () => ({ messages: [{ role: 'assistant', content: 'm1', name: 'p1' }] }), { next: 'p2' }).addNode('p2', () => ({ messages: [{ role: 'assistant', content: 'm2', name: 'p2' }] }), { next: 'r' }).addNode('r', a.agent, options).setEntry('p1');
      return { graph, provider: a.provider };
    };
    void prefix;
    const lastN = build({ contextMode: ContextMode.LAST_N, contextN: 2 });
    await lastN.graph.run('question');
    assert.equal(lastN.provider.requests[0]?.messages.at(-1)?.content, 'p1: m1\n\np2: m2');
    const full = build({ contextMode: ContextMode.FULL });
    await full.graph.run('question');
    assert.equal(full.provider.requests[0]?.messages.at(-1)?.content, 'user: question\n\np1: m1\n\np2: m2');
    const custom = build({ contextMode: ContextMode.CUSTOM, contextFn: (s) => `custom ${s.messages.length}` });
    await custom.graph.run('question');
    assert.equal(custom.provider.requests[0]?.messages.at(-1)?.content, 'custom 3');
    const summarizer = new ScriptedProvider({ replies: [{ text: 'SUMMARY', usage: { promptTokens: 7, completionTokens: 3 } }] });
    const summary = build({ contextMode: ContextMode.SUMMARY, summaryProvider: summarizer, summaryMaxTokens: 64 });
    const result = await summary.graph.run('question');
    assert.equal(summarizer.requests.length, 1);
    assert.equal(summarizer.requests[0]?.maxTokens, 64);
    assert.match(summary.provider.requests[0]?.messages.at(-1)?.content ?? '', /^Summary of the conversation so far:\nSUMMARY\n\nLatest message \(p2\):\nm2$/);
    assert.equal(result.nodeResults.r?.[0]?.usage.totalTokens, 15 + 10, 'the summary call counts in the node usage');
  });

  test('context options on a function node are refused', () => {
    assert.throws(() => new AgentGraph().addNode('f', () => 1, { contextMode: ContextMode.FULL }), /agent nodes only/);
  });
});
