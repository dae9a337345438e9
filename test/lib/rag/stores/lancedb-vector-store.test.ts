import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import * as lancedb from '@lancedb/lancedb';
import { VectorStoreError } from '../../../../lib/core/errors/vector-store-error.js';
import { SchemaVersionError } from '../../../../lib/storage/errors/index.js';
import { lanceArrow } from '../../../../lib/rag/stores/lance-arrow.js';
import { LanceDBVectorStore } from '../../../../lib/rag/stores/lancedb-vector-store.js';

describe('LanceDBVectorStore (besides the conformance file)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentlib-lance-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a table written by a newer layout is refused with SchemaVersionError; a foreign table with VectorStoreError', async () => {
    const arrow = lanceArrow();
    const db = await lancedb.connect(dir);
    const field = (name: string): unknown => new arrow.Field(name, new arrow.Utf8(), false);
    const vector = new arrow.Field('vector', new arrow.FixedSizeList(2, new arrow.Field('item', new arrow.Float32(), true)), false);
    await db.createEmptyTable('newer', new arrow.Schema([field('id'), vector], new Map([['agentlib.rag.version', '2']])) as never);
    await db.createEmptyTable('foreign', new arrow.Schema([field('id'), field('name')]) as never);
    db.close();
    const newer = new LanceDBVectorStore({ path: dir, table: 'newer' });
    await assert.rejects(newer.count(), (error: unknown) => SchemaVersionError.isInstance(error) && error.found === 2 && error.supported === 1);
    await newer.close();
    const foreign = new LanceDBVectorStore({ path: dir, table: 'foreign' });
    await assert.rejects(foreign.search([1, 0], 3), (error: unknown) => VectorStoreError.isInstance(error) && /not an agentlib vector table/.test(error.message));
    await foreign.close();
  });

  test('clear() drops the table, so the next add may bring other dimensions', async () => {
    const store = new LanceDBVectorStore({ path: dir, table: 'redim' });
    await store.addDocuments([{ id: 'a', text: 'a', metadata: {} }], [[1, 0]]);
    await store.clear();
    await store.addDocuments([{ id: 'b', text: 'b', metadata: {} }], [[0, 0, 1]]);
    assert.deepEqual((await store.search([0, 0, 1], 5)).map((r) => r.document.id), ['b']);
    await store.close();
  });

  test('adds in batches of batchSize merge-inserts; an upsert across batches keeps one row per id', async () => {
    const store = new LanceDBVectorStore({ path: dir, table: 'batched', batchSize: 3 });
    const docs = Array.from({ length: 7 }, (_, i) => ({ id: `d${i}`, text: `t${i}`, metadata: { i } }));
    await store.addDocuments(docs, docs.map((_, i) => [1, i]));
    await store.addDocuments(docs.slice(2, 6).map((d) => ({ ...d, text: `${d.text}!` })), docs.slice(2, 6).map(() => [0, 1]));
    assert.equal(await store.count(), 7);
    assert.deepEqual((await store.list()).map((d) => d.text), ['t0', 't1', 't2!', 't3!', 't4!', 't5!', 't6']);
    await store.close();
  });
});
