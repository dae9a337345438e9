import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { InMemoryCheckpointStore, type Checkpoint, type CheckpointStore } from '../../../lib/graph/index.js';
import { FileCheckpointStore } from '../../../lib/graph/checkpoint/file-store.js';
import { PostgresCheckpointStore } from '../../../lib/graph/checkpoint/postgres-store.js';
import { SQLiteCheckpointStore } from '../../../lib/graph/checkpoint/sqlite-store.js';
import { closeAllStorage } from '../../../lib/storage/connection-registry.js';
import { HOSTILE_IDS } from '../../support/hostile-ids.js';
import { requires } from '../../support/requirements.js';
import { freshPostgresDatabase, type TestDatabase } from '../../support/services.js';

/** A backend under test: a fresh store, and a way to plant a raw record (corrupt, future version). */
interface Backend {
  name: string;
  options?: { skip: string | false };
  /** Several processes can write one thread (a shared database file). */
  multiProcess?: (dir: string) => string;
  /** A store URL several processes can share (for the claim race). */
  claimUrl?: () => Promise<string>;
  open: () => Promise<{ store: CheckpointStore; writeRaw: (threadId: string, id: string, text: string) => Promise<void>; cleanup: () => Promise<void> }>;
}

const temps: string[] = [];
const databases: TestDatabase[] = [];
after(async () => {
  await closeAllStorage();
  for (const db of databases) await db.drop();
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

const backends: Backend[] = [
  {
    name: 'memory',
    open: () => {
      const store = new InMemoryCheckpointStore();
      return Promise.resolve({ store, writeRaw: (t, id, text) => Promise.resolve(store.putRaw(t, id, text)), cleanup: () => Promise.resolve() });
    },
  },
  {
    name: 'file',
    claimUrl: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'agentlib-ckpt-claims-'));
      temps.push(dir);
      return `file://${dir}`;
    },
    open: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'agentlib-ckpt-'));
      temps.push(dir);
      const store = new FileCheckpointStore(dir);
      return {
        store,
        writeRaw: async (t, id, text) => {
          await mkdir(join(dir, t), { recursive: true });
          await writeFile(join(dir, t, `999999999999-${id}.json`), text);
        },
        cleanup: () => rm(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'sqlite',
    multiProcess: (dir) => join(dir, 'agentlib.db'),
    claimUrl: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'agentlib-ckpt-claims-'));
      temps.push(dir);
      return `sqlite://${join(dir, 'agentlib.db')}`;
    },
    open: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'agentlib-ckpt-sqlite-'));
      temps.push(dir);
      const store = new SQLiteCheckpointStore(join(dir, 'agentlib.db'));
      return { store, writeRaw: (t, id, text) => Promise.resolve(store.putRaw(t, id, text)), cleanup: () => Promise.resolve() };
    },
  },
  {
    name: 'postgres',
    options: requires('postgres'),
    claimUrl: async () => {
      const db = await freshPostgresDatabase();
      databases.push(db);
      return db.url;
    },
    open: async () => {
      const db = await freshPostgresDatabase();
      databases.push(db);
      const store = await PostgresCheckpointStore.open(db.url);
      return { store, writeRaw: (t, id, text) => store.putRaw(t, id, text), cleanup: () => Promise.resolve() };
    },
  },
];

let n = 0;
function checkpoint(threadId: string, fields: Partial<Checkpoint> = {}): Checkpoint {
  n++;
  return {
    id: `ckpt_${n}_${Date.now()}`,
    threadId,
    parentId: null,
    graph: 'g',
    createdAt: new Date().toISOString(),
    source: 'step',
    status: 'running',
    node: 'a',
    state: { messages: [{ role: 'user', content: 'hi' }], data: { n }, history: ['a'], metadata: {}, errors: [] },
    next: [{ node: 'b' }],
    progress: null,
    interrupts: [],
    step: n,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, totalCostUsd: 0, embeddingTokens: 0, totalEmbeddingCostUsd: 0, llmCalls: 0, toolUsage: {}, toolTokens: {} },
    nodeResults: {},
    seen: [],
    lastHash: null,
    stalls: 0,
    ...fields,
  };
}

for (const backend of backends) {
  describe(`CheckpointStore conformance: ${backend.name}`, backend.options ?? {}, () => {
    test('put, getLatest, get by id; list newest first; threads; deleteThread', async () => {
      const { store, cleanup } = await backend.open();
      try {
        const a = [checkpoint('t-a'), checkpoint('t-a'), checkpoint('t-a')];
        for (const c of a) await store.put(c);
        const b = checkpoint('t-b');
        await store.put(b);
        assert.equal((await store.getLatest('t-a'))?.id, a[2]?.id);
        assert.deepEqual(await store.get(b.id), b);
        assert.equal(await store.get('ckpt_missing'), undefined);
        assert.equal(await store.getLatest('t-none'), undefined);
        assert.deepEqual((await store.list('t-a')).map((c) => c.id), [a[2]?.id, a[1]?.id, a[0]?.id]);
        assert.deepEqual(await store.threads(), ['t-a', 't-b']);
        assert.equal(await store.deleteThread('t-a'), 3);
        assert.deepEqual(await store.list('t-a'), []);
        assert.equal(await store.get(a[0]?.id as string), undefined);
        assert.deepEqual(await store.threads(), ['t-b']);
      } finally {
        await store.close();
        await cleanup();
      }
    });

    test('pagination: limit and before', async () => {
      const { store, cleanup } = await backend.open();
      try {
        const all = Array.from({ length: 7 }, () => checkpoint('pages'));
        for (const c of all) await store.put(c);
        const newest = [...all].reverse().map((c) => c.id);
        const page1 = await store.list('pages', { limit: 3 });
        assert.deepEqual(page1.map((c) => c.id), newest.slice(0, 3));
        const page2 = await store.list('pages', { limit: 3, before: page1.at(-1)?.id as string });
        assert.deepEqual(page2.map((c) => c.id), newest.slice(3, 6));
        const page3 = await store.list('pages', { limit: 3, before: page2.at(-1)?.id as string });
        assert.deepEqual(page3.map((c) => c.id), newest.slice(6));
        await assert.rejects(store.list('pages', { limit: 0 }), RangeError);
      } finally {
        await store.close();
        await cleanup();
      }
    });

    test('a 5 MB state and Unicode round-trip exactly', async () => {
      const { store, cleanup } = await backend.open();
      try {
        const big = 'x'.repeat(5 * 1024 * 1024);
        const text = 'naïve café — 日本語 — 🧪🚀 — עברית — \u2028';
        const c = checkpoint('big', { state: { messages: [{ role: 'user', content: text }], data: { big, text, nested: { [text]: [text] } }, history: [], metadata: {}, errors: [] } });
        await store.put(c);
        const back = await store.getLatest('big');
        assert.equal(back?.state.data.big, big);
        assert.deepEqual(back?.state, c.state);
      } finally {
        await store.close();
        await cleanup();
      }
    });

    test('a record of a newer version and a corrupted record each give a typed error', async () => {
      const { store, writeRaw, cleanup } = await backend.open();
      try {
        await writeRaw('future', 'ckpt_future', JSON.stringify({ kind: 'graph-checkpoint', version: 99, data: {} }));
        await assert.rejects(store.getLatest('future'), (e: unknown) => (e as Error).name === 'SchemaVersionError');
        await writeRaw('broken', 'ckpt_broken', '{"kind":"graph-checkpoint","vers');
        await assert.rejects(store.getLatest('broken'), (e: unknown) => (e as Error).name === 'CorruptRecordError');
      } finally {
        await store.close();
        await cleanup();
      }
    });

    test('state JSON cannot hold is refused by put with its path; nothing is stored', async () => {
      const { store, cleanup } = await backend.open();
      try {
        const bad = checkpoint('refused', { state: { messages: [], data: { orders: [{}, {}, {}, { placedAt: new Date() }] }, history: [], metadata: {}, errors: [] } });
        await assert.rejects(store.put(bad), /state\.data\.orders\[3\]\.placedAt/);
        assert.equal(await store.getLatest('refused'), undefined);
      } finally {
        await store.close();
        await cleanup();
      }
    });

    test('thread ids outside ^[A-Za-z0-9_.-]{1,128}$ or with .. are refused', async () => {
      const { store, cleanup } = await backend.open();
      try {
        for (const bad of HOSTILE_IDS) {
          await assert.rejects(store.put(checkpoint(bad)), (e: unknown) => (e as Error).name === 'InvalidStoreIdError', bad);
        }
      } finally {
        await store.close();
        await cleanup();
      }
    });
  
    test('interrupt claims: one holder at a time, released by its owner only, taken over on request, gone with the thread', async () => {
      const { store, cleanup } = await backend.open();
      try {
        const claim = (owner: string) => ({ interruptId: 't-claim:int_1', owner, claimedAt: `2026-01-01T00:00:0${owner.length}.000Z` });
        assert.equal(await store.claimInterrupt('t-claim', claim('run_a')), undefined, 'the first claim is taken');
        assert.deepEqual(await store.claimInterrupt('t-claim', claim('run_bb')), claim('run_a'), 'a second claim gets the holder');
        assert.equal(await store.claimInterrupt('t-claim', { ...claim('run_bb'), interruptId: 't-claim:int_2' }), undefined, 'claims are per interrupt');
        await store.releaseInterrupt('t-claim', 't-claim:int_1', 'run_bb');
        assert.deepEqual(await store.claimInterrupt('t-claim', claim('run_ccc')), claim('run_a'), 'another owner cannot release it');
        await store.releaseInterrupt('t-claim', 't-claim:int_1', 'run_a');
        assert.equal(await store.claimInterrupt('t-claim', claim('run_ccc')), undefined, 'released by its owner, it can be claimed again');
        assert.equal(await store.claimInterrupt('t-claim', claim('run_dddd'), true), undefined, 'takeOver replaces a claim');
        assert.deepEqual(await store.claimInterrupt('t-claim', claim('run_e')), claim('run_dddd'));
        await store.put(checkpoint('t-claim'));
        await store.deleteThread('t-claim');
        assert.equal(await store.claimInterrupt('t-claim', claim('run_e')), undefined, 'deleteThread drops the thread\'s claims');
        for (const bad of HOSTILE_IDS) {
          await assert.rejects(store.claimInterrupt(bad, { interruptId: `${bad}:int_1`, owner: 'run_x', claimedAt: '2026-01-01T00:00:00.000Z' }), (e: unknown) => (e as Error).name === 'InvalidStoreIdError', bad);
        }
      } finally {
        await store.close();
        await cleanup();
      }
    });

    if (backend.claimUrl) {
      test('four processes claiming the same 30 interrupts: each interrupt won by exactly one', async () => {
        const url = await (backend.claimUrl as () => Promise<string>)();
        const script = fileURLToPath(new URL('./fixtures/claim-interrupts.ts', import.meta.url));
        const outputs = await Promise.all(['p1', 'p2', 'p3', 'p4'].map((tag) => promisify(execFile)(process.execPath, ['--import', 'tsx', script, url, tag, '30'])));
        const won = outputs.flatMap((o) => JSON.parse(o.stdout) as string[]);
        assert.equal(won.length, 30, `claims won: ${won.length}`);
        assert.equal(new Set(won).size, 30);
      });
    }

    if (backend.multiProcess) {
      test('four processes writing one thread: every checkpoint kept, each process in its own order', async () => {
        const dir = await mkdtemp(join(tmpdir(), 'agentlib-ckpt-mp-'));
        temps.push(dir);
        const path = (backend.multiProcess as (d: string) => string)(dir);
        const script = fileURLToPath(new URL('./fixtures/put-checkpoints.ts', import.meta.url));
        await Promise.all(['p1', 'p2', 'p3', 'p4'].map((tag) => promisify(execFile)(process.execPath, ['--import', 'tsx', script, path, tag, '25'])));
        const store = new SQLiteCheckpointStore(path);
        try {
          const all = await store.list('shared', { limit: 1000 });
          assert.equal(all.length, 100);
          assert.equal(new Set(all.map((c) => c.id)).size, 100);
          for (const tag of ['p1', 'p2', 'p3', 'p4']) {
            const mine = all.filter((c) => c.state.data.tag === tag).map((c) => c.state.data.i);
            assert.deepEqual(mine, Array.from({ length: 25 }, (_, i) => 24 - i), tag);
          }
        } finally {
          await store.close();
        }
      });
    }
  });
}
