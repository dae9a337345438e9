import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InterruptError } from '../../../lib/core/errors/interrupt-error.js';
import { AgentGraph, InMemoryCheckpointStore, InterruptRequest, MergePolicy, type Interruptible, type CheckpointStore, type NodeContext, type ReadonlyGraphState } from '../../../lib/graph/index.js';
import { eventLog } from '../../support/agent-harness.js';

/** Counts node entries: a node that runs again shows up twice. */
function counter(): { runs: string[]; count: (name: string) => number } {
  const runs: string[] = [];
  return { runs, count: (name) => runs.filter((r) => r === name).length };
}

/** upstream → review (asks twice) → downstream; built fresh per "process". */
function reviewGraph(c: ReturnType<typeof counter>): AgentGraph {
  return new AgentGraph({ name: 'review' })
    .addNode('upstream', () => {
      c.runs.push('upstream');
      return { data: { draft: 'v1' } };
    }, { next: 'review' })
    .addNode('review', async function* (state: ReadonlyGraphState): Interruptible {
      c.runs.push('review');
      const first = yield new InterruptRequest('Approve the draft?', { draft: state.data.draft });
      const second = yield new InterruptRequest('Any note?');
      return { data: { approved: first, note: second } };
    }, { next: 'downstream' })
    .addNode('downstream', (s) => {
      c.runs.push('downstream');
      return `published=${String(s.data.approved)} note=${String(s.data.note)}`;
    })
    .setEntry('upstream');
}

describe('interrupts and resume', () => {
  test('in the same process: the live generator gets the answers at its yields; no node runs twice', async () => {
    const c = counter();
    const graph = reviewGraph(c);
    const log = eventLog();
    const first = await graph.run('go', { observers: [log.observer] });
    assert.equal(first.interrupted, true);
    assert.equal(first.status, 'interrupted');
    assert.match(first.interruptId ?? '', /^thread_[0-9a-f]+:int_/);
    assert.deepEqual(first.interrupts.map((i) => [i.node, i.prompt, i.payload]), [['review', 'Approve the draft?', { draft: 'v1' }]]);
    assert.deepEqual(log.of('graph-interrupt').map((e) => e.interruptId), [first.interruptId]);
    const second = await graph.resume(first.interruptId as string, 'yes', { observers: [log.observer] });
    assert.equal(second.interrupted, true, 'a second interrupt in one node is not skipped');
    assert.equal(second.interrupts[0]?.prompt, 'Any note?');
    const done = await graph.resume(second.interruptId as string, 'ship it');
    assert.equal(done.status, 'completed');
    assert.equal(done.content, 'published=yes note=ship it');
    assert.deepEqual(c.runs, ['upstream', 'review', 'downstream'], 'the live generator was not entered again');
    assert.deepEqual(done.state.history, ['upstream', 'review', 'downstream']);
    assert.equal(log.of('graph-resume').length, 1);
  });

  test('in another process: only the interrupted node is entered again, earlier answers replayed, upstream not re-run', async () => {
    const store = new InMemoryCheckpointStore();
    const c1 = counter();
    const first = await reviewGraph(c1).run('go', { checkpointStore: store });
    const c2 = counter();
    // A new graph instance has no live generators: what another process would have.
    const second = await reviewGraph(c2).resume(first.interruptId as string, 'yes', { checkpointStore: store });
    assert.equal(second.interrupts[0]?.prompt, 'Any note?');
    const c3 = counter();
    const done = await reviewGraph(c3).resume(second.interruptId as string, 'ok', { checkpointStore: store });
    assert.equal(done.content, 'published=yes note=ok');
    assert.deepEqual(c1.runs, ['upstream', 'review']);
    assert.deepEqual(c2.runs, ['review'], 'upstream is not run again');
    assert.deepEqual(c3.runs, ['review', 'downstream']);
    assert.deepEqual(done.state.history, ['upstream', 'review', 'downstream']);
    assert.equal(done.steps, 3);
  });

  test('an unknown or already used interruptId is a typed error', async () => {
    const c = counter();
    const graph = reviewGraph(c);
    const first = await graph.run('go');
    await assert.rejects(graph.resume('nope', 1), (e: unknown) => InterruptError.isInstance(e) && e.reason === 'unknown');
    await assert.rejects(graph.resume(`${first.threadId}:int_missing`, 1), (e: unknown) => InterruptError.isInstance(e) && e.reason === 'unknown');
    await graph.resume(first.interruptId as string, 'yes');
    await assert.rejects(graph.resume(first.interruptId as string, 'again'), (e: unknown) => InterruptError.isInstance(e) && e.reason === 'used');
  });

  test('interrupts inside parallel branches: finished branches keep their results, each interrupt is answered', async () => {
    const store = new InMemoryCheckpointStore();
    const runs: string[] = [];
    const build = (): AgentGraph =>
      new AgentGraph({ name: 'par' })
        .addParallelNodes('team', {
          fast: () => {
            runs.push('fast');
            return { data: { fast: 1 }, output: 'f' };
          },
          askA: async function* (): Interruptible {
            runs.push('askA');
            const a = yield new InterruptRequest('A?');
            return { data: { a }, output: 'a' };
          },
          askB: async function* (): Interruptible {
            runs.push('askB');
            const b = yield new InterruptRequest('B?');
            return { data: { b }, output: 'b' };
          },
        }, { merge: MergePolicy.APPEND })
        .setEntry('team');
    const first = await build().run(undefined, { checkpointStore: store });
    assert.deepEqual(first.interrupts.map((i) => [i.prompt, i.path]), [['A?', ['team', 'askA']], ['B?', ['team', 'askB']]]);
    const [ia, ib] = first.interrupts;
    const second = await build().resume(ib?.id as string, 'bee', { checkpointStore: store });
    assert.deepEqual(second.interrupts.map((i) => i.id), [ia?.id], 'the other interrupt is still pending, same id');
    const done = await build().resume(ia?.id as string, 'ay', { checkpointStore: store });
    assert.equal(done.status, 'completed');
    assert.deepEqual(done.state.data.__last_output__, ['f', 'a', 'b']);
    assert.deepEqual([done.state.data.fast, done.state.data.a, done.state.data.b], [[1], ['ay'], ['bee']]);
    assert.equal(runs.filter((r) => r === 'fast').length, 1, 'the finished branch did not run again');
  });

  test('interrupts inside subgraphs interrupt the parent and resume inside the child', async () => {
    const store = new InMemoryCheckpointStore();
    const runs: string[] = [];
    const build = (): AgentGraph => {
      const child = new AgentGraph({ name: 'child' })
        .addNode('prep', () => {
          runs.push('prep');
          return { data: { prepped: true } };
        }, { next: 'ask' })
        .addNode('ask', async function* (): Interruptible {
          runs.push('ask');
          const answer = yield new InterruptRequest('child question');
          return { data: { answer } };
        })
        .setEntry('prep');
      return new AgentGraph({ name: 'parent' })
        .addNode('before', () => void runs.push('before'), { next: 'sub' })
        .addSubgraph('sub', child, { outputMap: { answer: 'childAnswer' }, next: 'after' })
        .addNode('after', (s) => `got ${String(s.data.childAnswer)}`)
        .setEntry('before');
    };
    const first = await build().run(undefined, { checkpointStore: store });
    assert.deepEqual(first.interrupts.map((i) => [i.prompt, i.path]), [['child question', ['sub', 'ask']]]);
    const done = await build().resume(first.interruptId as string, 42, { checkpointStore: store });
    assert.equal(done.content, 'got 42');
    assert.deepEqual(runs, ['before', 'prep', 'ask', 'ask']);
  });

  test('interruptBefore asks before the node runs; the answer is in data.__human_input__', async () => {
    let seen: unknown;
    const graph = new AgentGraph()
      .addNode('act', (s) => {
        seen = s.data.__human_input__;
        return 'acted';
      }, { interruptBefore: 'Go ahead?' })
      .setEntry('act');
    const first = await graph.run();
    assert.equal(first.interrupts[0]?.prompt, 'Go ahead?');
    assert.equal(seen, undefined);
    const done = await graph.resume(first.interruptId as string, 'go');
    assert.equal(seen, 'go');
    assert.equal(done.content, 'acted');
    assert.equal(done.state.data.__human_input__, undefined, 'the answer is not left in the state');
  });

  test('a generator yielding something else is an error, not an ignored value', async () => {
    const graph = new AgentGraph().addNode('g', async function* (): Interruptible {
      yield 'oops' as unknown as InterruptRequest;
      return 'x';
    }).setEntry('g');
    await assert.rejects(graph.run(), /yielded a string: a node generator yields only InterruptRequest/);
  });
});

describe('checkpoints and time travel', () => {
  const linear = (runs: string[] = []): AgentGraph =>
    new AgentGraph({ name: 'lin' })
      .addNode('a', () => {
        runs.push('a');
        return { data: { x: 1 } };
      }, { next: 'b' })
      .addNode('b', (s) => {
        runs.push('b');
        return { data: { y: (s.data.x as number) * 10 } };
      }, { next: 'c' })
      .addNode('c', (s) => {
        runs.push('c');
        return `y=${String(s.data.y)}`;
      })
      .setEntry('a');

  test('a checkpoint after every step; history lists them newest first', async () => {
    const store = new InMemoryCheckpointStore();
    const log = eventLog();
    const result = await linear().run(undefined, { checkpointStore: store, threadId: 't1', observers: [log.observer] });
    const history = await linear().history('t1', { checkpointStore: store });
    assert.deepEqual(history.map((c) => [c.source, c.node, c.step, c.status]), [
      ['step', 'c', 3, 'completed'],
      ['step', 'b', 2, 'running'],
      ['step', 'a', 1, 'running'],
      ['input', null, 0, 'running'],
    ]);
    assert.equal(result.checkpointId, history[0]?.id);
    assert.deepEqual(history.map((c) => c.parentId), [history[1]?.id, history[2]?.id, history[3]?.id, null]);
    assert.equal(log.of('graph-checkpoint').length, 3);
  });

  test('fromCheckpoint + stateUpdate forks: the run goes on from there with the edited state; the fork records its parent', async () => {
    const store = new InMemoryCheckpointStore();
    await linear().run(undefined, { checkpointStore: store, threadId: 't2' });
    const history = await linear().history('t2', { checkpointStore: store });
    const afterA = history.find((c) => c.node === 'a');
    const runs: string[] = [];
    const forked = await linear(runs).run(undefined, { checkpointStore: store, fromCheckpoint: afterA?.id as string, stateUpdate: { data: { x: 7 } } });
    assert.deepEqual(runs, ['b', 'c'], 'a did not run again');
    assert.equal(forked.content, 'y=70');
    const after = await linear().history('t2', { checkpointStore: store });
    const fork = after.find((c) => c.source === 'fork');
    assert.equal(fork?.parentId, afterA?.id);
    assert.equal(after[0]?.parentId, after.find((c) => c.node === 'b' && c.parentId === fork?.id)?.id);
  });

  test('continueThread goes on after a stop without running finished nodes again', async () => {
    const store = new InMemoryCheckpointStore();
    const runs: string[] = [];
    const stopped = await linear(runs).run(undefined, { checkpointStore: store, threadId: 't3', maxTotalTokens: 0 });
    assert.equal(stopped.status, 'budget-exceeded');
    const done = await linear(runs).continueThread('t3', { checkpointStore: store });
    assert.equal(done.content, 'y=10');
    assert.deepEqual(runs, ['a', 'b', 'c']);
  });

  test('state JSON cannot hold is refused when the checkpoint is written, with the path', async () => {
    const store: CheckpointStore = new InMemoryCheckpointStore();
    const graph = new AgentGraph()
      .addNode('orders', () => ({ data: { orders: [{}, {}, {}, { placedAt: new Date(0) }] } }))
      .setEntry('orders');
    await assert.rejects(graph.run(undefined, { checkpointStore: store, threadId: 'bad' }), /state\.data\.orders\[3\]\.placedAt/);
    const latest = await store.getLatest('bad');
    assert.equal(latest?.source, 'input', 'nothing half-written after the input checkpoint');
    const fn = new AgentGraph().addNode('f', () => ({ data: { cb: (): number => 1 } })).setEntry('f');
    await assert.rejects(fn.run(undefined, { checkpointStore: store }), /state\.data\.cb/);
    const big = new AgentGraph().addNode('f', () => ({ data: { n: 10n } })).setEntry('f');
    await assert.rejects(big.run(undefined, { checkpointStore: store }), /state\.data\.n/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const cyc = new AgentGraph().addNode('f', () => ({ data: { cyclic } })).setEntry('f');
    await assert.rejects(cyc.run(undefined, { checkpointStore: store }), /state\.data\.cyclic\.self/);
  });

  test('a new run on a thread that has checkpoints is refused (continue, resume or fork it)', async () => {
    const store = new InMemoryCheckpointStore();
    await linear().run(undefined, { checkpointStore: store, threadId: 'once' });
    await assert.rejects(linear().run(undefined, { checkpointStore: store, threadId: 'once' }), /already has checkpoints/);
  });

  test('node ctx carries thread and step', async () => {
    const seen: Pick<NodeContext, 'threadId' | 'step' | 'attempt'>[] = [];
    const graph = new AgentGraph().addNode('a', (_s, ctx) => void seen.push({ threadId: ctx.threadId, step: ctx.step, attempt: ctx.attempt })).setEntry('a');
    await graph.run(undefined, { threadId: 'ctx-thread' });
    assert.deepEqual(seen, [{ threadId: 'ctx-thread', step: 1, attempt: 1 }]);
  });
});
