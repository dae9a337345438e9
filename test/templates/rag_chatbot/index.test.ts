// The rag_chatbot template ships index.db, the index of its fixtures/docs. This fails when the shipped
// index is stale (a document edited, added or removed, or the indexer's chunking changed): it builds a
// fresh index with the same command (scripts/build-template-index.ts, the built CLI) and compares the
// chunks. Fix: node --import tsx scripts/build-template-index.ts, then re-record the cassette.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Document } from '../../../lib/rag/document.js';
import { SqliteVectorStore } from '../../../lib/rag/stores/sqlite-vector-store.js';
import { buildTemplateIndex, RAG_TEMPLATE_DIR, RAG_TEMPLATE_INDEX } from '../../../scripts/build-template-index.js';
import { ensureCliBuilt } from '../../support/cli-build.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlib-rag-template-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The chunks of an index file (opened from a copy, so the shipped file is never touched). */
async function chunks(path: string, name: string): Promise<{ id: string | undefined; text: string; metadata: Document['metadata'] }[]> {
  const copy = join(dir, name);
  copyFileSync(path, copy);
  const store = new SqliteVectorStore({ path: copy });
  try {
    return (await store.list()).map(({ id, text, metadata }) => ({ id, text, metadata }));
  } finally {
    await store.close();
  }
}

describe('templates/rag_chatbot/index.db', () => {
  before(() => ensureCliBuilt());

  test('is up to date with fixtures/docs (rebuild: node --import tsx scripts/build-template-index.ts)', async () => {
    const fresh = join(dir, 'fresh.db');
    await buildTemplateIndex(fresh);
    const shipped = await chunks(join(RAG_TEMPLATE_DIR, RAG_TEMPLATE_INDEX), 'shipped.db');
    const rebuilt = await chunks(fresh, 'rebuilt.db');
    assert.ok(rebuilt.length > 0);
    assert.deepEqual(shipped, rebuilt, 'templates/rag_chatbot/index.db is stale: run node --import tsx scripts/build-template-index.ts and re-record the cassette');
  });

  test('indexes every document of fixtures/docs, under the source the answers cite', async () => {
    const shipped = await chunks(join(RAG_TEMPLATE_DIR, RAG_TEMPLATE_INDEX), 'sources.db');
    const sources = [...new Set(shipped.map((chunk) => chunk.metadata['source']))].sort();
    const files = readdirSync(join(RAG_TEMPLATE_DIR, 'fixtures', 'docs')).sort().map((file) => `fixtures/docs/${file}`);
    assert.deepEqual(sources, files);
    assert.ok(shipped.every((chunk) => chunk.metadata['embedder'] === 'hashing-384'));
  });
});
