import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { EXIT_INTERRUPTED_FOR_INPUT, run } from '../../commands/graph.js';
import { SQLiteCheckpointStore } from '../../lib/graph/checkpoint/sqlite-store.js';
import { closeAllStorage } from '../../lib/storage/connection-registry.js';
import { memoryIO } from '../support/cli-io.js';

const dir = await mkdtemp(join(tmpdir(), 'agentlib-graph-cli-'));
after(async () => {
  await closeAllStorage();
  await rm(dir, { recursive: true, force: true });
});
await writeFile(join(dir, 'nodes.mjs'), `export function draft() { return { data: { draft: 'v1' }, output: 'drafted' }; }
export function publish(state) { return 'published: ' + state.data.__human_input__; }
`);
await writeFile(join(dir, 'review.graph.yaml'), `kind: graph
name: review
entry: draft
nodes:
  draft: { function: ./nodes.mjs#draft, next: publish }
  publish: { function: ./nodes.mjs#publish, interrupt_before: "Publish?" }
`);

const context = (io: ReturnType<typeof memoryIO>): Parameters<typeof run>[1] => ({ io: { ...io, cwd: dir }, signal: new AbortController().signal, version: '0.0.0', color: false });
const base = { color: false, debug: false, _: [] as string[], checkpoint: `sqlite://${join(dir, 'ckpt.db')}`, 'output-format': 'json' };

describe('agentlib graph (command module)', () => {
  test('render prints Mermaid or JSON', async () => {
    const io = memoryIO();
    assert.equal(await run({ ...base, action: 'render', args: ['review.graph.yaml'], format: 'mermaid' }, context(io)), 0);
    assert.match(io.out(), /^flowchart TD/);
    const json = memoryIO();
    await run({ ...base, action: 'render', args: ['review.graph.yaml'], format: 'json' }, context(json));
    assert.equal((JSON.parse(json.out()) as { entry: string }).entry, 'draft');
  });

  test(`run stops at an interrupt with exit ${EXIT_INTERRUPTED_FOR_INPUT} and the resume command; resume in a new invocation finishes; checkpoints ls lists the thread`, async () => {
    const io = memoryIO();
    const code = await run({ ...base, action: 'run', args: ['review.graph.yaml', 'go'], thread: 'cli-thread' }, context(io));
    assert.equal(code, EXIT_INTERRUPTED_FOR_INPUT);
    const first = JSON.parse(io.out()) as { interruptId: string; history: string[] };
    assert.deepEqual(first.history, ['draft']);
    const text = memoryIO();
    await run({ ...base, action: 'checkpoints', args: ['ls'], thread: 'cli-thread', 'output-format': 'text' }, context(text));
    assert.match(text.out(), /cli-thread {2}step 1 {2}interrupt/);
    const resumed = memoryIO();
    assert.equal(await run({ ...base, action: 'resume', args: [first.interruptId], response: 'yes' }, context(resumed)), 0);
    const done = JSON.parse(resumed.out()) as { content: string; history: string[] };
    assert.equal(done.content, 'published: yes');
    assert.deepEqual(done.history, ['draft', 'publish']);
    const plain = memoryIO();
    await run({ ...base, action: 'run', args: ['review.graph.yaml', 'go'], 'output-format': 'text' }, context(plain));
    assert.match(plain.err(), /interrupted at publish: Publish\?\n {2}resume: agentlib graph resume \S+:int_\w+ --response "…" --checkpoint sqlite:\/\//);
  });

  test('resume of an interrupt a dead process claimed: refused with the --take-over advice, then answered with --take-over; --take-over elsewhere is a usage error', async () => {
    const io = memoryIO();
    assert.equal(await run({ ...base, action: 'run', args: ['review.graph.yaml', 'go'], thread: 'claimed-thread' }, context(io)), EXIT_INTERRUPTED_FOR_INPUT);
    const { interruptId } = JSON.parse(io.out()) as { interruptId: string };
    // What a resume killed before its first checkpoint leaves in the store.
    const store = new SQLiteCheckpointStore(join(dir, 'ckpt.db'));
    await store.claimInterrupt('claimed-thread', { interruptId, owner: 'run_dead', claimedAt: '2026-01-01T00:00:00.000Z' });
    await store.close();
    await assert.rejects(Promise.resolve(run({ ...base, action: 'resume', args: [interruptId], response: 'yes' }, context(memoryIO()))), (e: unknown) => (e as Error).name === 'InterruptError' && /being answered by run run_dead .*--take-over/.test((e as Error).message));
    const taken = memoryIO();
    assert.equal(await run({ ...base, action: 'resume', args: [interruptId], response: 'yes', 'take-over': true }, context(taken)), 0);
    assert.equal((JSON.parse(taken.out()) as { content: string }).content, 'published: yes');
    await assert.rejects(Promise.resolve(run({ ...base, action: 'run', args: ['review.graph.yaml', 'go'], 'take-over': true }, context(memoryIO()))), /--take-over applies to graph resume, not to graph run/);
  });

  test('an unknown action is a usage error with a suggestion', async () => {
    await assert.rejects(Promise.resolve(run({ ...base, action: 'rnu', args: [] }, context(memoryIO()))), /Did you mean "run"/);
  });
});
