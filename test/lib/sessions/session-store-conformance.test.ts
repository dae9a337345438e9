import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SessionConflictError } from '../../../lib/core/errors/session-conflict-error.js';
import { SessionNotFoundError } from '../../../lib/core/errors/session-not-found-error.js';
import type { Message } from '../../../lib/core/message.js';
import { JsonFileSessionStore } from '../../../lib/sessions/json-file-session-store.js';
import { MemorySessionStore } from '../../../lib/sessions/memory-session-store.js';
import { RedisSessionStore } from '../../../lib/sessions/redis-session-store.js';
import { SQLiteSessionStore } from '../../../lib/sessions/sqlite-session-store.js';
import type { SessionStore } from '../../../lib/sessions/types.js';
import type { SessionStoreOptions } from '../../../lib/sessions/base-session-store.js';
import { closeAllStorage, CorruptRecordError, InvalidStoreIdError } from '../../../lib/storage/index.js';
import { requires } from '../../support/requirements.js';
import { redisTestPrefix, redisTestUrl } from '../../support/services.js';
import { HOSTILE_IDS } from '../../support/hostile-ids.js';

/** One backend under test: how to open a store on a fresh place, and what it wrote there. */
interface Backend {
  name: string;
  options: { skip: string | false };
  /** Opens a store; stores opened with the same `place` share their data. */
  open(place: string, options?: SessionStoreOptions): SessionStore;
  /** A fresh place (a directory, a database file, a key prefix). */
  place(): Promise<string>;
}

let root: string;
let places = 0;

const BACKENDS: Backend[] = [
  {
    name: 'memory',
    options: { skip: false },
    open: (() => {
      const shared = new Map<string, Map<string, MemorySessionStore>>();
      return (place: string, options: SessionStoreOptions = {}) => {
        const byNamespace = shared.get(place) ?? new Map<string, MemorySessionStore>();
        shared.set(place, byNamespace);
        const key = `${options.namespace ?? 'default'}|${options.defaultTtl ?? ''}`;
        const store = byNamespace.get(key) ?? new MemorySessionStore(options);
        byNamespace.set(key, store);
        return store;
      };
    })(),
    place: () => Promise.resolve(`m${places++}`),
  },
  {
    name: 'JSON files',
    options: { skip: false },
    open: (place, options = {}) => new JsonFileSessionStore({ ...options, directory: place }),
    place: async () => {
      const dir = join(root, `files-${places++}`, 'base');
      await mkdir(dir, { recursive: true });
      return dir;
    },
  },
  {
    name: 'SQLite',
    options: { skip: false },
    open: (place, options = {}) => new SQLiteSessionStore({ ...options, path: place }),
    place: () => Promise.resolve(join(root, `db-${places++}.db`)),
  },
  {
    name: 'Redis',
    options: requires('redis'),
    open: (place, options = {}) => new RedisSessionStore({ ...options, url: redisTestUrl(), keyPrefix: place }),
    place: () => Promise.resolve(redisTestPrefix(`sessions${places++}`)),
  },
];

/** A conversation with everything a provider may put in a message, to be kept byte for byte. */
function richConversation(): Message[] {
  return [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Weather in Faro and Porto? ünïcødé 😀 "quotes" \\ back\nslash', images: [{ data: 'iVBORw0KGgo=', mediaType: 'image/png' }] },
    {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'call_1', toolName: 'get_weather', parameters: { city: 'Faro', opts: { unit: 'c', days: [1, 2.5, -0] } }, thoughtSignature: 'CiQBjz1rX+/AbC==' },
        { id: 'call_2', toolName: 'get_weather', parameters: { city: 'Porto' } },
      ],
      reasoningParts: [
        { type: 'thinking', provider: 'anthropic', text: 'Two cities: call both.', signature: 'EqQBCkYIARgCKkB+/==' },
        { type: 'redacted', provider: 'anthropic', data: 'opaque-bytes==' },
        { type: 'signature', provider: 'gemini', signature: 'AAAA/w==', text: '', offset: 0 },
      ],
    },
    { role: 'tool', content: '{"temperature":21}', toolCallId: 'call_1', toolName: 'get_weather' },
    { role: 'tool', content: 'timeout', toolCallId: 'call_2', toolName: 'get_weather', isError: true },
    { role: 'assistant', content: 'Faro 21 °C; Porto unknown.', name: 'bot' },
  ] as Message[];
}

const userTurn = (i: number): Message[] => [
  { role: 'user', content: `q${i}` },
  { role: 'assistant', content: `a${i}` },
];

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'agentlib-sessions-'));
});

after(async () => {
  await closeAllStorage();
  await rm(root, { recursive: true, force: true });
});

for (const backend of BACKENDS) {
  describe(`SessionStore conformance: ${backend.name}`, backend.options, () => {
    let place: string;
    let store: SessionStore;
    const opened: SessionStore[] = [];
    const open = (options?: SessionStoreOptions): SessionStore => {
      const s = backend.open(place, options);
      opened.push(s);
      return s;
    };

    before(async () => {
      place = await backend.place();
      store = open();
    });

    after(async () => {
      for (const s of opened) await s.close();
    });

    test('save and load keep tool calls, tool results, reasoning parts and thought signatures byte for byte', async () => {
      const messages = richConversation();
      const saved = await store.save('rich', { messages, summary: 'S', metadata: { user: 42 } });
      assert.equal(saved.revision, 1);
      const loaded = await open().load('rich');
      assert.equal(JSON.stringify(loaded?.messages), JSON.stringify(messages));
      assert.equal(loaded?.summary, 'S');
      assert.deepEqual(loaded?.metadata, { user: 42 });
      assert.equal(await store.load('never-saved'), undefined);
    });

    test('load / append cycles never duplicate or lose a message', async () => {
      for (let i = 0; i < 10; i++) {
        const before = await store.load('cycles');
        const after = await store.append('cycles', userTurn(i));
        assert.equal(after.revision, (before?.revision ?? 0) + 1);
      }
      const loaded = await store.load('cycles');
      assert.deepEqual(loaded?.messages.map((m) => m.content), Array.from({ length: 10 }, (_, i) => [`q${i}`, `a${i}`]).flat());
    });

    test('concurrent appends in one process each land exactly once, in order per writer', async () => {
      await Promise.all(Array.from({ length: 4 }, async (_, writer) => {
        for (let i = 0; i < 5; i++) await store.append('busy', [{ role: 'user', content: `${writer}:${i}` }]);
      }));
      const contents = (await store.load('busy'))!.messages.map((m) => m.content);
      assert.equal(contents.length, 20);
      assert.equal(new Set(contents).size, 20);
      for (let writer = 0; writer < 4; writer++) {
        assert.deepEqual(contents.filter((c) => c.startsWith(`${writer}:`)), [0, 1, 2, 3, 4].map((i) => `${writer}:${i}`));
      }
    });

    test('a save with a stale expectedRevision is refused and writes nothing', async () => {
      const first = await store.save('occ', { messages: userTurn(1) });
      await store.append('occ', userTurn(2));
      await assert.rejects(store.save('occ', { messages: [] }, { expectedRevision: first.revision }), (e) => SessionConflictError.isInstance(e) && e.actualRevision === 2);
      assert.equal((await store.load('occ'))?.messages.length, 4);
      await assert.rejects(store.save('occ-new', { messages: [] }, { expectedRevision: 3 }), SessionConflictError);
      assert.equal((await store.save('occ-new', { messages: [] }, { expectedRevision: 0 })).revision, 1);
    });

    test('a save checks the stored session, not the one this store last saw: a write through another store object is never overwritten blindly', async () => {
      let t = 10_000;
      const a = open({ namespace: 'two-writers', now: () => t });
      const b = open({ namespace: 'two-writers', now: () => t });
      const first = await a.save('s', { messages: userTurn(1) });
      t += 10;
      const seen = await b.load('s');
      await b.save('s', { messages: [...seen!.messages, ...userTurn(2)] }, { expectedRevision: seen!.revision });
      t += 10;
      await assert.rejects(a.save('s', { messages: [...first.messages, ...userTurn(3)] }, { expectedRevision: first.revision }), (e) => SessionConflictError.isInstance(e) && e.actualRevision === 2);
      assert.deepEqual((await b.load('s'))?.messages.map((m) => m.content), ['q1', 'a1', 'q2', 'a2'], 'the refused save wrote nothing');
      const third = await a.save('s', { messages: userTurn(4) });
      assert.deepEqual([third.revision, third.createdAt, third.updatedAt], [3, 10_000, 10_020]);
      const loaded = await b.load('s');
      assert.deepEqual([loaded?.revision, loaded?.createdAt, loaded?.messages.map((m) => m.content)], [3, 10_000, ['q4', 'a4']]);
      assert.equal((await a.save('s', { messages: [] }, { expectedRevision: 3 })).revision, 4);
    });

    test('a session deleted and written again by another store object: a save goes on from the new one (its revision and creation time)', async () => {
      let t = 20_000;
      const a = open({ namespace: 'recreated', now: () => t });
      const b = open({ namespace: 'recreated', now: () => t });
      await a.save('s', { messages: userTurn(1) });
      t += 1_000;
      assert.equal(await b.delete('s'), true);
      await b.save('s', { messages: userTurn(2) });
      t += 1_000;
      const saved = await a.save('s', { messages: userTurn(3) });
      assert.deepEqual([saved.revision, saved.createdAt], [2, 21_000]);
      const loaded = await b.load('s');
      assert.deepEqual([loaded?.revision, loaded?.createdAt, loaded?.messages.map((m) => m.content)], [2, 21_000, ['q3', 'a3']]);
    });

    test('a save over an expired session: the revision goes on, the creation time starts again, and expectedRevision 0 is right', async () => {
      let t = 30_000_000;
      const a = open({ namespace: 'expiring', defaultTtl: 60, now: () => t });
      await a.save('s', { messages: userTurn(1) });
      t += 61_000;
      await assert.rejects(a.save('s', { messages: [] }, { expectedRevision: 1 }), (e) => SessionConflictError.isInstance(e) && e.actualRevision === 0);
      const saved = await a.save('s', { messages: userTurn(2) }, { expectedRevision: 0 });
      assert.deepEqual([saved.revision, saved.createdAt, saved.expiresAt], [2, t, t + 60_000]);
      assert.deepEqual((await a.load('s'))?.messages.map((m) => m.content), ['q2', 'a2']);
    });

    test('list shows live sessions of the namespace, newest first; namespaces never collide', async () => {
      let t = 1_000;
      const a = open({ namespace: 'agent-a', now: () => t });
      const b = open({ namespace: 'agent-b', now: () => t });
      await a.save('shared-id', { messages: userTurn(1) });
      t += 10;
      await a.save('second', { messages: [] });
      await b.save('shared-id', { messages: userTurn(2).concat(userTurn(3)) });
      assert.deepEqual((await a.list()).map((s) => [s.id, s.messageCount]), [['second', 0], ['shared-id', 2]]);
      assert.deepEqual((await b.list()).map((s) => [s.id, s.messageCount]), [['shared-id', 4]]);
      assert.equal((await a.load('shared-id'))?.messages[0]?.content, 'q1');
      assert.equal((await b.load('shared-id'))?.messages[0]?.content, 'q2');
      assert.equal(await a.delete('shared-id'), true);
      assert.equal(await a.delete('shared-id'), false);
      assert.equal((await b.load('shared-id'))?.messages.length, 4, 'the other namespace keeps its session');
    });

    test('branch makes an independent copy; an unknown source or an existing target is a typed error', async () => {
      await store.save('trunk', { messages: userTurn(1), summary: 'sum' });
      const branched = await store.branch('trunk', 'twig');
      assert.equal(branched.id, 'twig');
      await store.append('twig', userTurn(2));
      assert.equal((await store.load('trunk'))?.messages.length, 2);
      assert.equal((await store.load('twig'))?.messages.length, 4);
      assert.equal((await store.load('twig'))?.summary, 'sum');
      await assert.rejects(store.branch('no-such-session', 'x'), (e) => SessionNotFoundError.isInstance(e) && e.sessionId === 'no-such-session');
      await assert.rejects(store.branch('trunk', 'twig'), SessionConflictError);
    });

    test('defaultTtl expires sessions; a write may set its own ttl; 0 never expires', async () => {
      let t = 5_000_000;
      const ttlStore = open({ namespace: 'ttl', defaultTtl: 60, now: () => t });
      assert.equal(ttlStore.defaultTtl, 60);
      await ttlStore.save('short', { messages: userTurn(1) });
      await ttlStore.save('long', { messages: userTurn(1) }, { ttl: 600 });
      await ttlStore.save('forever', { messages: userTurn(1) }, { ttl: 0 });
      t += 61_000;
      assert.equal(await ttlStore.load('short'), undefined);
      assert.deepEqual((await ttlStore.list()).map((s) => s.id).sort(), ['forever', 'long']);
      const revived = await ttlStore.append('short', userTurn(2));
      assert.deepEqual(revived.messages.map((m) => m.content), ['q2', 'a2'], 'an expired session starts over');
      await assert.rejects(ttlStore.branch('short-gone', 'x'), SessionNotFoundError);
    });

    test('50 hostile ids are refused by every operation with a typed error, and nothing is written', async () => {
      const hostile = open({ namespace: 'hostile' });
      for (const id of HOSTILE_IDS) {
        const label = JSON.stringify(id);
        await assert.rejects(hostile.load(id), InvalidStoreIdError, `load ${label}`);
        await assert.rejects(hostile.save(id, { messages: userTurn(1) }), InvalidStoreIdError, `save ${label}`);
        await assert.rejects(hostile.append(id, userTurn(1)), InvalidStoreIdError, `append ${label}`);
        await assert.rejects(hostile.delete(id), InvalidStoreIdError, `delete ${label}`);
        await assert.rejects(hostile.branch(id, 'ok-id'), InvalidStoreIdError, `branch from ${label}`);
      }
      await hostile.save('ok-id', { messages: [] });
      for (const id of HOSTILE_IDS) await assert.rejects(hostile.branch('ok-id', id), InvalidStoreIdError, `branch to ${JSON.stringify(id)}`);
      assert.deepEqual((await hostile.list()).map((s) => s.id), ['ok-id']);
      assert.throws(() => open({ namespace: '../escape' }), InvalidStoreIdError);
    });
  });
}

describe('JSON file sessions on disk', () => {
  test('one file per session under <base>/<namespace>/, nothing outside the base directory, corrupt files are typed errors', async () => {
    const top = join(root, 'disk');
    const base = join(top, 'base');
    await mkdir(base, { recursive: true });
    const store = new JsonFileSessionStore({ directory: base, namespace: 'bot' });
    for (const id of HOSTILE_IDS) await assert.rejects(store.save(id, { messages: [] }), InvalidStoreIdError);
    await store.save('s1', { messages: userTurn(1) });
    assert.deepEqual(await readdir(top), ['base']);
    assert.deepEqual(await readdir(join(base, 'bot')), ['s1.json']);
    await writeFile(join(base, 'bot', 'broken.json'), '{ not json');
    await assert.rejects(store.load('broken'), CorruptRecordError);
  });
});
