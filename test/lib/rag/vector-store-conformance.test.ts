import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FilterError } from '../../../lib/core/errors/filter-error.js';
import { VectorStoreError } from '../../../lib/core/errors/vector-store-error.js';
import type { Document } from '../../../lib/rag/document.js';
import { LanceDBVectorStore } from '../../../lib/rag/stores/lancedb-vector-store.js';
import { InMemoryVectorStore } from '../../../lib/rag/stores/memory-vector-store.js';
import { PostgresVectorStore } from '../../../lib/rag/stores/postgres-vector-store.js';
import { SqliteVectorStore } from '../../../lib/rag/stores/sqlite-vector-store.js';
import type { VectorStore } from '../../../lib/rag/stores/vector-store.js';
import { startPgliteServer, type PgliteServer } from './support/pglite-server.js';

/** A backend under test: how to open a fresh, empty store, and how to tear everything down. */
interface Backend {
  name: string;
  open(): Promise<VectorStore>;
  teardown?(): Promise<void>;
  options?: { skip?: string | boolean };
}

let pglite: Promise<PgliteServer> | undefined;
let sqliteDir: string | undefined;
let lanceDir: string | undefined;
let tables = 0;

const BACKENDS: Backend[] = [
  { name: 'memory', open: () => Promise.resolve(new InMemoryVectorStore()) },
  { name: 'memory (int8)', open: () => Promise.resolve(new InMemoryVectorStore({ quantization: 'int8' })) },
  { name: 'memory (JavaScript kernels)', open: () => Promise.resolve(new InMemoryVectorStore({ kernel: 'js' })) },
  {
    name: 'sqlite (sqlite-vec, shared connection)',
    open: () => Promise.resolve(new SqliteVectorStore({ path: join((sqliteDir ??= mkdtempSync(join(tmpdir(), 'agentlib-rag-sqlite-'))), 'agentlib.db'), table: `conformance_${++tables}` })),
    teardown: () => {
      if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
      return Promise.resolve();
    },
  },
  {
    name: 'postgres (pgvector on PGlite, through pg)',
    open: async () => new PostgresVectorStore({ url: (await (pglite ??= startPgliteServer())).url, table: `conformance_${++tables}` }),
    teardown: async () => (await pglite)?.stop(),
  },
  {
    name: 'lancedb (embedded, on disk)',
    open: () => Promise.resolve(new LanceDBVectorStore({ path: (lanceDir ??= mkdtempSync(join(tmpdir(), 'agentlib-rag-lance-'))), table: `conformance_${++tables}` })),
    teardown: () => {
      if (lanceDir) rmSync(lanceDir, { recursive: true, force: true });
      return Promise.resolve();
    },
  },
];

/** A unit vector along axis `i` of `dim`, tilted a little toward axis `j`. */
function axis(dim: number, i: number, tilt = 0, j = (i + 1) % dim): number[] {
  const v = new Array<number>(dim).fill(0);
  v[i] = 1;
  v[j] = (v[j] ?? 0) + tilt;
  return v;
}

const DOCS: Document[] = [
  { id: 'a', text: 'alpha', metadata: { source: 'a.md', page: 1, lang: 'en', draft: false } },
  { id: 'b', text: 'beta', metadata: { source: 'b.md', page: 2, lang: 'de', draft: true } },
  { id: 'c', text: 'gamma', metadata: { source: 'a.md', page: 3, lang: 'en', draft: false } },
  { id: 'd', text: 'delta', metadata: { source: 'd.md', page: 4, lang: 'fr', draft: false } },
];
const VECTORS = [axis(8, 0), axis(8, 0, 0.5), axis(8, 0, 1.5), axis(8, 3)];

for (const backend of BACKENDS) {
  describe(`VectorStore conformance: ${backend.name}`, backend.options ?? {}, () => {
    let store: VectorStore;
    before(async () => {
      store = await backend.open();
    });
    after(async () => {
      await store.close();
      await backend.teardown?.();
    });

    const reset = async (): Promise<void> => {
      await store.clear();
      await store.addDocuments(DOCS, VECTORS);
    };

    test('addDocuments returns the documents\' ids, or new unique ones; count', async () => {
      await store.clear();
      const ids = await store.addDocuments([...DOCS, { text: 'no id', metadata: {} }, { text: 'no id either', metadata: {} }], [...VECTORS, axis(8, 5), axis(8, 6)]);
      assert.deepEqual(ids.slice(0, 4), ['a', 'b', 'c', 'd']);
      assert.equal(new Set(ids).size, 6);
      assert.equal(await store.count(), 6);
      const listed = await store.list();
      assert.equal(listed.length, 6);
      assert.deepEqual(listed.map((d) => d.id), [...ids].sort(), 'list() gives every document, in id order');
      assert.deepEqual(listed.filter((d) => ['a', 'b', 'c', 'd'].includes(d.id as string)), DOCS);
    });

    test('search: cosine similarity, best first, topK honoured, documents returned whole', async () => {
      await reset();
      const results = await store.search(axis(8, 0), 3);
      assert.deepEqual(results.map((r) => r.document.id), ['a', 'b', 'c']);
      assert.ok(Math.abs((results[0]?.score ?? 0) - 1) < 0.02, `identical direction scores 1, got ${results[0]?.score}`);
      assert.ok(Math.abs((results[1]?.score ?? 0) - 1 / Math.hypot(1, 0.5)) < 0.02);
      assert.deepEqual(results[0]?.document, DOCS[0]);
      assert.equal((await store.search(axis(8, 0), 100)).length, 4);
      assert.deepEqual(await store.search(axis(8, 0), 0), []);
    });

    test('upsert: adding an existing id replaces its text, metadata and vector', async () => {
      await reset();
      await store.addDocuments([{ id: 'd', text: 'delta v2', metadata: { source: 'd2.md' } }], [axis(8, 0, 0.1)]);
      assert.equal(await store.count(), 4);
      const results = await store.search(axis(8, 0), 2);
      assert.deepEqual(results.map((r) => r.document.id), ['a', 'd']);
      assert.equal(results[1]?.document.text, 'delta v2');
      assert.deepEqual(results[1]?.document.metadata, { source: 'd2.md' });
    });

    test('delete and clear', async () => {
      await reset();
      await store.delete(['b', 'unknown']);
      assert.equal(await store.count(), 3);
      assert.deepEqual((await store.search(axis(8, 0), 4)).map((r) => r.document.id), ['a', 'c', 'd']);
      await store.clear();
      assert.equal(await store.count(), 0);
      assert.deepEqual(await store.search(axis(8, 0), 4), []);
    });

    test('filters: equality, $ne, $in, $nin, ranges, $and, $or, booleans', async () => {
      await reset();
      const ids = async (filter: Parameters<VectorStore['search']>[2]): Promise<string[]> => (await store.search(axis(8, 0), 10, filter)).map((r) => r.document.id as string).sort();
      assert.deepEqual(await ids({ source: 'a.md' }), ['a', 'c']);
      assert.deepEqual(await ids({ source: { $ne: 'a.md' } }), ['b', 'd']);
      assert.deepEqual(await ids({ lang: { $in: ['de', 'fr'] } }), ['b', 'd']);
      assert.deepEqual(await ids({ lang: { $nin: ['de', 'fr'] } }), ['a', 'c']);
      assert.deepEqual(await ids({ page: { $gte: 2, $lt: 4 } }), ['b', 'c']);
      assert.deepEqual(await ids({ page: { $gt: 3 } }), ['d']);
      assert.deepEqual(await ids({ page: { $lte: 1 } }), ['a']);
      assert.deepEqual(await ids({ draft: true }), ['b']);
      assert.deepEqual(await ids({ $or: [{ lang: 'fr' }, { page: 1 }] }), ['a', 'd']);
      assert.deepEqual(await ids({ $and: [{ source: 'a.md' }, { page: { $gt: 1 } }] }), ['c']);
      assert.deepEqual(await ids({ source: 'a.md', lang: 'de' }), []);
      assert.deepEqual(await ids({ lang: { $in: [] } }), []);
    });

    test('filter values are data: quotes, backslashes, mixed types, missing fields and null', async () => {
      await store.clear();
      const docs: Document[] = [
        { id: 'q1', text: 'one', metadata: { title: "it's", note: 'a\\b', rank: 3 } },
        { id: 'q2', text: 'two', metadata: { title: "x' OR '1'='1", rank: '3' } },
        { id: 'q3', text: 'three', metadata: { title: 'plain', rank: null } },
        { id: 'q4', text: 'four', metadata: { title: 'ünï😀' } },
      ];
      await store.addDocuments(docs, [axis(8, 0), axis(8, 1), axis(8, 2), axis(8, 3)]);
      const ids = async (filter: Parameters<VectorStore['search']>[2]): Promise<string[]> => (await store.search(axis(8, 0), 10, filter)).map((r) => r.document.id as string).sort();
      assert.deepEqual(await ids({ title: "it's" }), ['q1']);
      assert.deepEqual(await ids({ title: "x' OR '1'='1" }), ['q2']);
      assert.deepEqual(await ids({ note: 'a\\b' }), ['q1']);
      assert.deepEqual(await ids({ title: 'ünï😀' }), ['q4']);
      assert.deepEqual(await ids({ rank: 3 }), ['q1'], 'the number 3 is not the string "3"');
      assert.deepEqual(await ids({ rank: '3' }), ['q2']);
      assert.deepEqual(await ids({ rank: { $gte: 1 } }), ['q1'], 'a numeric range skips strings, nulls and missing fields');
      assert.deepEqual(await ids({ rank: { $gte: '1' } }), ['q2'], 'a string range skips numbers');
      assert.deepEqual(await ids({ rank: null }), ['q3', 'q4'], 'null matches null and a missing field');
      assert.deepEqual(await ids({ rank: { $ne: 3 } }), ['q2', 'q3', 'q4'], '$ne keeps documents without the field');
      assert.deepEqual(await ids({ rank: { $nin: [3, '3'] } }), ['q3', 'q4']);
    });

    test('refused filters raise FilterError instead of matching nothing', async () => {
      await reset();
      const refused = async (filter: unknown, kind: string): Promise<void> => {
        await assert.rejects(
          (async () => store.search(axis(8, 0), 3, filter as never))(),
          (error: unknown) => FilterError.isInstance(error) && error.kind === kind,
          JSON.stringify(filter),
        );
      };
      await refused({ source: { $regex: '^a' } }, 'unsupported-operator');
      await refused({ $not: { source: 'a.md' } }, 'unsupported-operator');
      await refused({ "source') OR 1=1 --": 'x' }, 'invalid-key');
      await refused({ 'a.b': 1 }, 'invalid-key');
      await refused({ lang: { $in: 'en' } }, 'invalid-value');
      await refused({ page: { $gt: { $lt: 3 } } }, 'invalid-value');
    });

    test('wrong dimensions and mismatched counts raise VectorStoreError', async () => {
      await reset();
      await assert.rejects(store.addDocuments([{ text: 'x', metadata: {} }], [[1, 2, 3]]), VectorStoreError);
      await assert.rejects(store.addDocuments([{ text: 'x', metadata: {} }], []), VectorStoreError);
      await assert.rejects((async () => store.search([1, 2], 3))(), VectorStoreError);
      assert.equal(await store.count(), 4);
    });

    test('10,000 documents in one call, then search, filter and delete among them', async () => {
      const store = await backend.open(); // a new store: this one holds 32 dimensions
      const n = 10_000;
      const dim = 32;
      let seed = 42;
      const random = (): number => {
        seed = (seed * 1664525 + 1013904223) >>> 0;
        return seed / 2 ** 32 - 0.5;
      };
      const docs: Document[] = [];
      const vectors: number[][] = [];
      for (let i = 0; i < n; i++) {
        docs.push({ id: `doc-${i}`, text: `document ${i}`, metadata: { group: i % 10, source: `f${i % 100}.md` } });
        vectors.push(Array.from({ length: dim }, random));
      }
      const ids = await store.addDocuments(docs, vectors);
      assert.equal(ids.length, n);
      assert.equal(await store.count(), n);
      const hit = await store.search(vectors[1234] as number[], 1);
      assert.equal(hit[0]?.document.id, 'doc-1234');
      const filtered = await store.search(vectors[1234] as number[], 5, { group: 4 });
      assert.equal(filtered.length, 5);
      assert.ok(filtered.every((r) => r.document.metadata['group'] === 4));
      assert.equal(filtered[0]?.document.id, 'doc-1234');
      await store.delete(ids.slice(0, 5000));
      assert.equal(await store.count(), 5000);
      assert.notEqual((await store.search(vectors[1234] as number[], 1))[0]?.document.id, 'doc-1234');
      await store.clear();
      await store.close();
    });
  });
}
