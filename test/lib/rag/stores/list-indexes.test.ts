import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Document } from '../../../../lib/rag/document.js';
import { listIndexes } from '../../../../lib/rag/stores/list-indexes.js';
import { openVectorStore } from '../../../../lib/rag/stores/open-vector-store.js';
import { acquireSqlite } from '../../../../lib/storage/sqlite-pool.js';
import { startPgliteServer } from '../support/pglite-server.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlib-list-indexes-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** `chunks` chunks over `sources` sources, embedder e-test, 4 dimensions. */
function chunks(prefix: string, count: number, sources: number): { docs: Document[]; vectors: number[][] } {
  const docs: Document[] = [];
  const vectors: number[][] = [];
  for (let i = 0; i < count; i += 1) {
    docs.push({ id: `${prefix}${i}`, text: `chunk ${i} of ${prefix}`, metadata: { source: `${prefix}/doc-${i % sources}.md`, embedder: 'e-test' } });
    vectors.push([1, i + 1, 0.5, -i]);
  }
  return { docs, vectors };
}

async function fill(url: string, table: string, count: number, sources: number): Promise<void> {
  const store = openVectorStore(url, { cwd: dir, table });
  try {
    const { docs, vectors } = chunks(table, count, sources);
    await store.addDocuments(docs, vectors);
  } finally {
    await store.close();
  }
}

const characters = (table: string, count: number): number => Array.from({ length: count }, (_, i) => `chunk ${i} of ${table}`.length).reduce((a, b) => a + b, 0);

describe('listIndexes', () => {
  test('sqlite: every rag table of the file with chunks, sources, characters, embedder and dbstat bytes; other tables are not indexes', async () => {
    await fill('sqlite://kb.db', 'handbook', 7, 3);
    await fill('sqlite://kb.db', 'agentlib_rag_vectors', 2, 2);
    const handle = acquireSqlite(join(dir, 'kb.db'));
    handle.db.exec('CREATE TABLE notes (id TEXT)'); // not a RAG index
    handle.release();
    const { backend, indexes } = await listIndexes('sqlite://kb.db', { cwd: dir });
    assert.equal(backend, 'sqlite');
    assert.deepEqual(
      indexes.map(({ bytes: _bytes, ...rest }) => rest),
      [
        { table: 'agentlib_rag_vectors', chunks: 2, sources: 2, characters: characters('agentlib_rag_vectors', 2), embedder: 'e-test' },
        { table: 'handbook', chunks: 7, sources: 3, characters: characters('handbook', 7), embedder: 'e-test' },
      ],
    );
    for (const index of indexes) assert.ok((index.bytes ?? 0) >= 4096, `${index.table}: at least a page (${String(index.bytes)})`);
  });

  test('a missing SQLite file or LanceDB directory holds no index and is not created; memory:// holds none', async () => {
    assert.deepEqual(await listIndexes('sqlite://none.db', { cwd: dir }), { backend: 'sqlite', indexes: [] });
    assert.equal(existsSync(join(dir, 'none.db')), false);
    assert.deepEqual(await listIndexes('lancedb://no-lance', { cwd: dir }), { backend: 'lancedb', indexes: [] });
    assert.equal(existsSync(join(dir, 'no-lance')), false);
    assert.deepEqual(await listIndexes('memory://', { cwd: dir }), { backend: 'memory', indexes: [] });
  });

  test('lancedb: the tables agentlib wrote, with their bytes; a foreign table is left out', async () => {
    process.env['LANCEDB_LOG'] ??= 'error';
    await fill('lancedb://lance', 'alpha', 5, 2);
    await fill('lancedb://lance', 'beta', 1, 1);
    const lancedb = await import('@lancedb/lancedb');
    const db = await lancedb.connect(join(dir, 'lance'));
    (await db.createTable('foreign_table', [{ x: 1 }])).close();
    db.close();
    const { backend, indexes } = await listIndexes('lancedb://lance', { cwd: dir });
    assert.equal(backend, 'lancedb');
    assert.deepEqual(
      indexes.map(({ table, chunks: n, sources }) => ({ table, chunks: n, sources })),
      [
        { table: 'alpha', chunks: 5, sources: 2 },
        { table: 'beta', chunks: 1, sources: 1 },
      ],
    );
    for (const index of indexes) assert.ok((index.bytes ?? 0) > 0, `${index.table}: ${String(index.bytes)} bytes`);
  });

  test('postgres (pgvector on PGlite): the recorded rag tables with pg_total_relation_size', async () => {
    const server = await startPgliteServer();
    try {
      await fill(server.url, 'pg_handbook', 4, 2);
      const { backend, indexes } = await listIndexes(server.url);
      assert.equal(backend, 'postgres');
      assert.deepEqual(
        indexes.map(({ bytes: _bytes, ...rest }) => rest),
        [{ table: 'pg_handbook', chunks: 4, sources: 2, characters: characters('pg_handbook', 4), embedder: 'e-test' }],
      );
      assert.ok((indexes[0]?.bytes ?? 0) > 0);
    } finally {
      const { closeAllStorage } = await import('../../../../lib/storage/index.js');
      await closeAllStorage();
      await server.stop();
    }
  });
});
