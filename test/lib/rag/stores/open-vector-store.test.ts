import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { StorageUrlError } from '../../../../lib/storage/errors/index.js';
import { LanceDBVectorStore } from '../../../../lib/rag/stores/lancedb-vector-store.js';
import { InMemoryVectorStore } from '../../../../lib/rag/stores/memory-vector-store.js';
import { openVectorStore } from '../../../../lib/rag/stores/open-vector-store.js';
import { PostgresVectorStore } from '../../../../lib/rag/stores/postgres-vector-store.js';
import { SqliteVectorStore } from '../../../../lib/rag/stores/sqlite-vector-store.js';

describe('openVectorStore', () => {
  test('memory, sqlite and lancedb (relative to cwd) and postgres URLs; other schemes are refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentlib-rag-url-'));
    try {
      assert.ok(openVectorStore('memory://') instanceof InMemoryVectorStore);
      const sqlite = openVectorStore('sqlite://kb.db', { cwd: dir, table: 'kb' });
      assert.ok(sqlite instanceof SqliteVectorStore);
      await sqlite.addDocuments([{ id: 'x', text: 'x', metadata: {} }], [[1, 0]]);
      assert.equal(await sqlite.count(), 1);
      await sqlite.close();
      const reopened = openVectorStore(`sqlite://${join(dir, 'kb.db')}`, { table: 'kb' });
      assert.equal(await reopened.count(), 1, 'the same file and table');
      await reopened.close();
      assert.ok(openVectorStore('postgres://u@127.0.0.1:1/db') instanceof PostgresVectorStore);
      const lance = openVectorStore('lancedb://lance', { cwd: dir, table: 'kb' });
      assert.ok(lance instanceof LanceDBVectorStore);
      await lance.addDocuments([{ id: 'y', text: 'y', metadata: { source: 'y.md' } }], [[0, 1, 0]]);
      await lance.close();
      const lanceAgain = openVectorStore(`lancedb://${join(dir, 'lance')}`, { table: 'kb' });
      assert.equal(await lanceAgain.count(), 1, 'the same directory and table');
      assert.deepEqual((await lanceAgain.search([0, 1, 0], 1))[0]?.document, { id: 'y', text: 'y', metadata: { source: 'y.md' } }, 'dimensions and rows read back from disk');
      await lanceAgain.close();
      assert.throws(() => openVectorStore('redis://127.0.0.1'), (error: unknown) => StorageUrlError.isInstance(error) && /memory:\/\/, sqlite:\/\/, postgres:\/\/, lancedb:\/\//.test(error.message));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
