import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { GraphExecutionError } from '../../../lib/core/errors/graph-execution-error.js';
import { InterruptError } from '../../../lib/core/errors/interrupt-error.js';
import { AgentGraph, InMemoryCheckpointStore, InterruptRequest, type CheckpointStore, type Interruptible } from '../../../lib/graph/index.js';
import { SQLiteCheckpointStore } from '../../../lib/graph/checkpoint/sqlite-store.js';
import { closeAllStorage } from '../../../lib/storage/connection-registry.js';

const temps: string[] = [];
after(async () => {
  await closeAllStorage();
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

/**
 * ask (interrupts, then performs its side effect with the answer) → done. Each call builds a new
 * graph instance, as another server process would have; `effects` collects every side effect.
 */
function approvalGraph(effects: string[], options: { failOn?: string } = {}): AgentGraph {
  return new AgentGraph({ name: 'approval' })
    .addNode('ask', async function* (): Interruptible {
      const answer = String(yield new InterruptRequest('Send the payment?'));
      // Let the other resume's reads and writes interleave with this one.
      await new Promise((resolve) => setImmediate(resolve));
      if (answer === options.failOn) throw new Error(`refused: ${answer}`);
      effects.push(`paid:${answer}`);
      return { data: { answer } };
    }, { next: 'done' })
    .addNode('done', (s) => `done with ${String(s.data.answer)}`)
    .setEntry('ask');
}

async function sqliteStores(): Promise<[CheckpointStore, CheckpointStore]> {
  const dir = await mkdtemp(join(tmpdir(), 'agentlib-claims-'));
  temps.push(dir);
  const path = join(dir, 'agentlib.db');
  return [new SQLiteCheckpointStore(path), new SQLiteCheckpointStore(path)];
}

describe('resume claims its interrupt', () => {
  test('two resumes of one interrupt at the same moment (two graph instances, one store): the node runs once, the other gets 409-style InterruptError', async () => {
    const [storeA, storeB] = await sqliteStores();
    const effects: string[] = [];
    const first = await approvalGraph(effects).run('go', { checkpointStore: storeA });
    const id = first.interruptId as string;
    const outcomes = await Promise.allSettled([
      approvalGraph(effects).resume(id, 'yes-A', { checkpointStore: storeA }),
      approvalGraph(effects).resume(id, 'yes-B', { checkpointStore: storeB }),
    ]);
    assert.equal(effects.length, 1, `the interrupted node ran ${effects.length} times: ${effects.join(', ')}`);
    const done = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    assert.equal(done.length, 1);
    assert.equal(refused.length, 1);
    const error: unknown = refused[0]?.reason;
    assert.ok(InterruptError.isInstance(error) && (error.reason === 'claimed' || error.reason === 'used'), String(error));
    if (error.reason === 'claimed') assert.match(error.message, /is being answered by run run_/);
    assert.equal((await storeA.getLatest(first.threadId))?.status, 'completed');
  });

  test('a resume that fails before the run goes on releases its claim: the interrupt can be answered again', async () => {
    const store = new InMemoryCheckpointStore();
    const effects: string[] = [];
    const first = await approvalGraph(effects, { failOn: 'bad' }).run('go', { checkpointStore: store });
    await assert.rejects(approvalGraph(effects, { failOn: 'bad' }).resume(first.interruptId as string, 'bad', { checkpointStore: store }), GraphExecutionError);
    const done = await approvalGraph(effects).resume(first.interruptId as string, 'good', { checkpointStore: store });
    assert.equal(done.content, 'done with good');
    assert.deepEqual(effects, ['paid:good']);
  });

  test('a claim left by a process that died is refused, then taken over with takeOverClaim', async () => {
    const store = new InMemoryCheckpointStore();
    const effects: string[] = [];
    const first = await approvalGraph(effects).run('go', { checkpointStore: store });
    const id = first.interruptId as string;
    // What a process killed mid-resume leaves behind.
    await store.claimInterrupt(first.threadId, { interruptId: id, owner: 'run_dead', claimedAt: '2026-01-01T00:00:00.000Z' });
    await assert.rejects(approvalGraph(effects).resume(id, 'yes', { checkpointStore: store }), (e: unknown) => InterruptError.isInstance(e) && e.reason === 'claimed' && e.claim?.owner === 'run_dead' && /takeOverClaim/.test(e.message));
    assert.deepEqual(effects, [], 'nothing ran');
    const done = await approvalGraph(effects).resume(id, 'yes', { checkpointStore: store, takeOverClaim: true });
    assert.equal(done.status, 'completed');
    assert.deepEqual(effects, ['paid:yes']);
    await assert.rejects(approvalGraph(effects).resume(id, 'again', { checkpointStore: store, takeOverClaim: true }), (e: unknown) => InterruptError.isInstance(e) && e.reason === 'used', 'takeOverClaim does not answer an interrupt twice');
  });

  test('takeOverClaim is refused by run and continueThread', async () => {
    const graph = approvalGraph([]);
    await assert.rejects(graph.run('go', { takeOverClaim: true }), /takeOverClaim is an option of resume, not of run/);
    await assert.rejects(graph.continueThread('t1', { takeOverClaim: true }), /not of continueThread/);
  });
});
