import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { MemoryLimitExceededError } from '../../../lib/core/errors/memory-limit-exceeded-error.js';
import { FileKnowledgeStore } from '../../../lib/memory/knowledge/file-knowledge-store.js';
import { KnowledgeMemory } from '../../../lib/memory/knowledge/knowledge-memory.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { eventLog, testRuntime } from '../../support/agent-harness.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentlib-kmem-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const DAY = 86_400_000;
const NOV26 = Date.UTC(2026, 10, 26, 9, 30, 0);

describe('KnowledgeMemory', () => {
  test('remember stores an entry and logs it in today\'s log; entries come most important first', async () => {
    const memory = new KnowledgeMemory({ now: () => NOV26 });
    const entry = await memory.remember({ content: '  User prefers metric units ', importance: 0.9, categories: ['preference', 'preference', ' '] });
    assert.deepEqual({ ...entry, id: 'x' }, { id: 'x', content: 'User prefers metric units', importance: 0.9, categories: ['preference'], createdAt: NOV26 });
    await memory.remember({ content: 'Project is called Falcon' });
    assert.deepEqual((await memory.entries()).map((e) => [e.content, e.importance]), [['User prefers metric units', 0.9], ['Project is called Falcon', 0.5]]);
    assert.deepEqual(await memory.store.readLog('2026-11-26'), ['09:30:00 remembered [preference] (importance 0.9): User prefers metric units', '09:30:00 remembered (importance 0.5): Project is called Falcon']);
  });

  test('importance-based eviction at maxEntries (default 50): the least important, then the oldest, go', async () => {
    let clock = NOV26;
    const memory = new KnowledgeMemory({ now: () => ++clock });
    assert.equal(memory.maxEntries, 50);
    for (let i = 0; i < 50; i++) await memory.remember({ content: `fact ${i}`, importance: i === 7 ? 0.1 : 0.5 });
    await memory.remember({ content: 'important', importance: 0.95 });
    const kept = await memory.entries();
    assert.equal(kept.length, 50);
    assert.ok(!kept.some((e) => e.content === 'fact 7'), 'the least important went');
    await memory.remember({ content: 'another', importance: 0.5 });
    const after2 = (await memory.entries()).map((e) => e.content);
    assert.ok(!after2.includes('fact 0') && after2.includes('fact 1') && after2.includes('another'), 'at equal importance the oldest went');
  });

  test('ttl: an entry is gone once expired (and deleted at the next remember)', async () => {
    let clock = NOV26;
    const memory = new KnowledgeMemory({ now: () => clock });
    const entry = await memory.remember({ content: 'short-lived', ttl: 60 });
    assert.equal(entry.expiresAt, NOV26 + 60_000);
    clock += 59_000;
    assert.equal((await memory.entries()).length, 1);
    clock += 1_000;
    assert.equal((await memory.entries()).length, 0);
    await memory.remember({ content: 'later' });
    assert.deepEqual((await memory.store.list()).map((e) => e.content), ['later']);
  });

  test('an entry over maxEntryChars is refused with MemoryLimitExceededError (limit and actual); bad input with ConfigurationError', async () => {
    const memory = new KnowledgeMemory({ maxEntryChars: 10 });
    await assert.rejects(memory.remember({ content: 'x'.repeat(11) }), (e: unknown) => MemoryLimitExceededError.isInstance(e) && e.limit === 10 && e.actual === 11);
    await assert.rejects(memory.remember({ content: '  ' }), ConfigurationError);
    await assert.rejects(memory.remember({ content: 'ok', importance: 2 }), ConfigurationError);
    await assert.rejects(memory.remember({ content: 'ok', ttl: -1 }), ConfigurationError);
    assert.deepEqual(await memory.entries(), []);
    assert.throws(() => new KnowledgeMemory({ maxEntries: 0 }), ConfigurationError);
  });

  test('Long-term Memory and Recent Memory blocks: entries, then the latest log lines of the last recentDays days', async () => {
    let clock = NOV26 - DAY;
    const memory = new KnowledgeMemory({ now: () => clock, maxRecentLines: 3 });
    assert.equal(await memory.contextBlock(), undefined);
    await memory.log('yesterday 1');
    await memory.log('yesterday 2');
    clock = NOV26;
    await memory.remember({ content: 'Likes tea', categories: ['preference'] });
    assert.equal(await memory.contextBlock(), [
      'Long-term Memory:\n- Likes tea [preference]',
      'Recent Memory:\n- 2026-11-25 09:30:00 yesterday 1\n- 2026-11-25 09:30:00 yesterday 2\n- 2026-11-26 09:30:00 remembered [preference] (importance 0.5): Likes tea',
    ].join('\n\n'));
    clock = NOV26 + 2 * DAY;
    assert.equal(await memory.contextBlock(), 'Long-term Memory:\n- Likes tea [preference]', 'logs older than recentDays are not shown');
  });
});

describe('KnowledgeMemory on an Agent', () => {
  test('the remember tool stores what the model asks; the turn is logged; the next conversation sees both blocks (MEMORY.md on disk)', async () => {
    const clock = NOV26;
    const store = new FileKnowledgeStore({ directory: join(dir, 'mem'), namespace: 'assistant' });
    const p = new ScriptedProvider({
      replies: [
        { toolCalls: [{ toolName: 'remember', parameters: { content: 'User prefers metric units', importance: 0.8, categories: ['preference'] } }] },
        'I will remember that.',
        'Metric it is.',
      ],
    });
    const events = eventLog();
    const agent = new Agent({ provider: p, knowledgeMemory: { store, now: () => clock }, observers: [events.observer], runtime: testRuntime() });
    assert.deepEqual(p.requests.length, 0);
    await agent.run('Please use metric units from now on.');
    assert.ok(p.requests[0]!.tools!.some((t) => t.name === 'remember'), 'the remember tool is offered');
    assert.deepEqual(events.of('tool-end').map((e) => e.toolName), ['remember']);
    const text = await readFile(join(dir, 'mem', 'assistant', 'MEMORY.md'), 'utf8');
    assert.match(text, /- User prefers metric units \[preference\] <!-- agentlib /);
    const log = await readFile(join(dir, 'mem', 'assistant', '2026-11-26.log'), 'utf8');
    assert.deepEqual(log.trim().split('\n'), [
      '09:30:00 remembered [preference] (importance 0.8): User prefers metric units',
      '09:30:00 user: Please use metric units from now on.',
      '09:30:00 assistant: I will remember that.',
    ]);
    // A new agent (a new conversation) on the same files.
    const next = new Agent({ provider: p, knowledgeMemory: { store: new FileKnowledgeStore({ directory: join(dir, 'mem'), namespace: 'assistant' }), now: () => clock }, runtime: testRuntime() });
    await next.run('How tall is Everest?');
    const system = p.requests[2]!.messages[0]!;
    assert.equal(system.role, 'system');
    assert.match(system.content, /^Long-term Memory:\n- User prefers metric units \[preference\]\n\nRecent Memory:\n/);
    assert.match(system.content, /2026-11-26 09:30:00 assistant: I will remember that\.$/);
  });

  test('a remember the memory refuses is a tool error the model sees; nothing stored', async () => {
    const p = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'remember', parameters: { content: 'x'.repeat(50) } }] }, 'ok'] });
    const agent = new Agent({ provider: p, knowledgeMemory: { maxEntryChars: 20 }, runtime: testRuntime() });
    await agent.run('remember this');
    const toolMessage = p.requests[1]!.messages.find((m) => m.role === 'tool')!;
    assert.match(toolMessage.content, /50 characters long; the limit is 20/);
    assert.deepEqual(await agent.knowledgeMemory!.entries(), []);
  });
});
