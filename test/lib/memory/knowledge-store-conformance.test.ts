import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { FileKnowledgeStore } from '../../../lib/memory/knowledge/file-knowledge-store.js';
import type { KnowledgeEntry } from '../../../lib/memory/knowledge/knowledge-entry.js';
import type { KnowledgeStore } from '../../../lib/memory/knowledge/knowledge-store.js';
import { MemoryKnowledgeStore } from '../../../lib/memory/knowledge/memory-knowledge-store.js';
import { SQLiteKnowledgeStore } from '../../../lib/memory/knowledge/sqlite-knowledge-store.js';
import { closeAllStorage, CorruptRecordError, InvalidStoreIdError } from '../../../lib/storage/index.js';
import { HOSTILE_IDS } from '../../support/hostile-ids.js';

interface Backend {
  name: string;
  place(): Promise<string>;
  open(place: string, namespace?: string): KnowledgeStore;
}

let root: string;
let places = 0;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'agentlib-knowledge-'));
});
after(async () => {
  await closeAllStorage();
  await rm(root, { recursive: true, force: true });
});

const shared = new Map<string, MemoryKnowledgeStore>();
const BACKENDS: Backend[] = [
  {
    name: 'memory',
    place: () => Promise.resolve(`mem-${++places}`),
    open: (place, namespace) => {
      const key = `${place}/${namespace ?? ''}`;
      if (!shared.has(key)) shared.set(key, new MemoryKnowledgeStore(namespace === undefined ? {} : { namespace }));
      return shared.get(key)!;
    },
  },
  {
    name: 'files (MEMORY.md + daily logs)',
    place: async () => {
      const path = join(root, `files-${++places}`, 'base');
      await mkdir(path, { recursive: true });
      return path;
    },
    open: (place, namespace) => new FileKnowledgeStore({ directory: place, ...(namespace === undefined ? {} : { namespace }) }),
  },
  {
    name: 'SQLite',
    place: () => Promise.resolve(join(root, `knowledge-${++places}.db`)),
    open: (place, namespace) => new SQLiteKnowledgeStore({ path: place, ...(namespace === undefined ? {} : { namespace }) }),
  },
];

const entry = (id: string, importance: number, createdAt: number, extra: Partial<KnowledgeEntry> = {}): KnowledgeEntry => ({ id, content: `fact ${id}`, importance, categories: [], createdAt, ...extra });

for (const backend of BACKENDS) {
  describe(`KnowledgeStore conformance: ${backend.name}`, () => {
    test('put / get / list (most important, then newest) / delete; a put replaces by id', async () => {
      const store = backend.open(await backend.place());
      await store.put(entry('a', 0.2, 1));
      await store.put(entry('b', 0.9, 2, { categories: ['pref', 'work'], ttl: 60, expiresAt: 60_002 }));
      await store.put(entry('c', 0.2, 3));
      assert.deepEqual((await store.list()).map((e) => e.id), ['b', 'c', 'a']);
      assert.deepEqual(await store.get('b'), entry('b', 0.9, 2, { categories: ['pref', 'work'], ttl: 60, expiresAt: 60_002 }));
      await store.put({ ...entry('a', 1, 1), content: 'replaced' });
      assert.deepEqual((await store.list()).map((e) => [e.id, e.content]), [['a', 'replaced'], ['b', 'fact b'], ['c', 'fact c']]);
      assert.equal(await store.delete('c'), true);
      assert.equal(await store.delete('c'), false);
      assert.equal(await store.get('c'), undefined);
    });

    test('content round-trips exactly: line breaks, comment markers, quotes, Unicode', async () => {
      const store = backend.open(await backend.place());
      const content = 'line 1\nline 2 --> <!-- agentlib {"id":"x"} -->\r\n- "quoted" \'s\' \\ 日本 🙂 \u202e\u0000 end';
      await store.put({ ...entry('tricky', 0.5, 1), content, categories: ['a<b>', '--'] });
      await store.put(entry('other', 0.4, 2));
      assert.deepEqual((await store.list()).map((e) => e.content), [content, 'fact other']);
      assert.deepEqual((await store.get('tricky'))!.categories, ['a<b>', '--']);
    });

    test('daily logs: appended lines in order, one line each, per day; an unknown day is empty', async () => {
      const store = backend.open(await backend.place());
      await store.appendLog('2026-11-25', 'first');
      await store.appendLog('2026-11-26', 'other day');
      await store.appendLog('2026-11-25', 'second\nwith a break');
      assert.deepEqual(await store.readLog('2026-11-25'), ['first', 'second with a break']);
      assert.deepEqual(await store.readLog('2026-11-26'), ['other day']);
      assert.deepEqual(await store.readLog('2026-01-01'), []);
      for (const day of ['2026-13-01', '2026-02-30', '../2026-11-25', '2026-11-25.log', '20261125', '2026-11-25/x', '']) {
        await assert.rejects(async () => store.appendLog(day, 'x'), InvalidStoreIdError, day);
        await assert.rejects(async () => store.readLog(day), InvalidStoreIdError, day);
      }
    });

    test('invalid entries are refused', async () => {
      const store = backend.open(await backend.place());
      await assert.rejects(async () => store.put(entry('x', 1.5, 1)), ConfigurationError);
      await assert.rejects(async () => store.put({ ...entry('x', 0.5, 1), categories: [1 as unknown as string] }), ConfigurationError);
      assert.deepEqual(await store.list(), []);
    });

    test('namespaces apart; reopened on the same place the data is there; clear removes entries and logs', async () => {
      const place = await backend.place();
      await backend.open(place, 'agent-a').put(entry('k', 0.5, 1));
      await backend.open(place, 'agent-a').appendLog('2026-11-26', 'hello');
      assert.deepEqual(await backend.open(place, 'agent-b').list(), []);
      assert.deepEqual(await backend.open(place, 'agent-b').readLog('2026-11-26'), []);
      const again = backend.open(place, 'agent-a');
      assert.deepEqual((await again.list()).map((e) => e.id), ['k']);
      await again.clear();
      assert.deepEqual(await again.list(), []);
      assert.deepEqual(await again.readLog('2026-11-26'), []);
    });

    test('50 hostile ids refused (namespace, entry id on every operation) with InvalidStoreIdError; nothing written outside', async () => {
      const place = await backend.place();
      const store = backend.open(place, 'safe');
      for (const id of HOSTILE_IDS) {
        const label = JSON.stringify(id);
        assert.throws(() => backend.open(place, id), InvalidStoreIdError, label);
        await assert.rejects(async () => store.put(entry(id, 0.5, 1)), InvalidStoreIdError, label);
        await assert.rejects(async () => store.get(id), InvalidStoreIdError, label);
        await assert.rejects(async () => store.delete(id), InvalidStoreIdError, label);
      }
      assert.deepEqual(await store.list(), []);
      if (backend.name.startsWith('files')) assert.deepEqual(await readdir(join(place, '..')), ['base']);
    });
  });
}

describe('FileKnowledgeStore files', () => {
  test('MEMORY.md is readable markdown with one bullet per entry; daily logs are YYYY-MM-DD.log; hand-added bullets become entries', async () => {
    const dir = join(root, 'layout');
    const store = new FileKnowledgeStore({ directory: dir, namespace: 'bot' });
    await store.put({ ...entry('e1', 0.8, 1), content: 'User prefers metric units', categories: ['preference'] });
    await store.appendLog('2026-11-26', '10:00:00 remembered something');
    const text = await readFile(join(dir, 'bot', 'MEMORY.md'), 'utf8');
    assert.match(text, /^# Long-term Memory\n/);
    assert.match(text, /\n- User prefers metric units \[preference\] <!-- agentlib \{"id":"e1",/);
    assert.equal(await readFile(join(dir, 'bot', '2026-11-26.log'), 'utf8'), '10:00:00 remembered something\n');
    await writeFile(join(dir, 'bot', 'MEMORY.md'), `${text}- Written by hand\n`);
    const listed = await store.list();
    assert.deepEqual(listed.map((e) => [e.content, e.importance]), [['User prefers metric units', 0.8], ['Written by hand', 0.5]]);
    assert.match(listed[1]!.id, /^md-[0-9a-f]{16}$/);
  });

  test('a damaged record is a CorruptRecordError naming the file and line', async () => {
    const dir = join(root, 'corrupt');
    const store = new FileKnowledgeStore({ directory: dir });
    await store.put(entry('e1', 0.5, 1));
    const path = join(dir, 'default', 'MEMORY.md');
    await writeFile(path, (await readFile(path, 'utf8')).replace('"importance":0.5', '"importance":"high"'));
    await assert.rejects(async () => store.list(), (error: unknown) => CorruptRecordError.isInstance(error) && error.message.includes(`${path}:6`) && /importance/.test(error.message));
  });
});
