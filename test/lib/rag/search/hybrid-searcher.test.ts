import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Document, SearchResult } from '../../../../lib/rag/document.js';
import type { EmbeddingProvider } from '../../../../lib/rag/embedders/embedding-provider.js';
import { BM25 } from '../../../../lib/rag/keyword/bm25.js';
import type { Reranker } from '../../../../lib/rag/rerankers/reranker.js';
import { FusionMethod, HybridSearcher } from '../../../../lib/rag/search/hybrid-searcher.js';
import { InMemoryVectorStore } from '../../../../lib/rag/stores/memory-vector-store.js';

const result = (id: string, score: number, source = `${id}.md`, text = `text ${id}`): SearchResult => ({ document: { id, text, metadata: { source } }, score });

/** An embedder that maps each known text to a fixed vector. */
function fixedEmbedder(vectors: Record<string, number[]>): EmbeddingProvider {
  return { name: 'fixed', dimensions: 3, embed: (texts) => Promise.resolve(texts.map((t) => vectors[t] ?? [0, 0, 1])) };
}

describe('HybridSearcher', () => {
  const store = new InMemoryVectorStore();
  const bm25 = new BM25();
  const embedder = fixedEmbedder({});

  test('RRF: Σ 1 / (60 + rank); documents in both lists rise', () => {
    const searcher = new HybridSearcher({ store, embedder, bm25 });
    const fused = searcher.fuse([result('a', 0.9), result('b', 0.8), result('c', 0.7)], [result('c', 12), result('d', 5)]);
    assert.deepEqual(fused.map((r) => r.document.id), ['c', 'a', 'b', 'd'], 'b and d tie at 1/62: first seen first');
    assert.ok(Math.abs((fused[0]?.score ?? 0) - (1 / 63 + 1 / 61)) < 1e-15);
    assert.ok(Math.abs((fused[1]?.score ?? 0) - 1 / 61) < 1e-15);
  });

  test('WEIGHTED: min-max normalised per side, then weighted', () => {
    const searcher = new HybridSearcher({ store, embedder, bm25, fusion: FusionMethod.WEIGHTED, vectorWeight: 0.7, keywordWeight: 0.3 });
    const fused = searcher.fuse([result('a', 0.9), result('b', 0.5), result('c', 0.1)], [result('c', 30), result('d', 10)]);
    const score = Object.fromEntries(fused.map((r) => [r.document.id, r.score]));
    assert.ok(Math.abs((score['a'] ?? 0) - 0.7) < 1e-12);
    assert.ok(Math.abs((score['b'] ?? 0) - 0.35) < 1e-12);
    assert.ok(Math.abs((score['c'] ?? 0) - 0.3) < 1e-12);
    assert.ok(Math.abs(score['d'] ?? 1) < 1e-12);
  });

  test('duplicates (same text and source, other ids) are merged; other sources are kept apart', () => {
    const searcher = new HybridSearcher({ store, embedder, bm25 });
    const fused = searcher.fuse([result('a', 1, 's.md', 'same'), result('a2', 0.9, 's.md', 'same'), result('x', 0.8, 't.md', 'same')], [result('a3', 3, 's.md', 'same')]);
    assert.deepEqual(fused.map((r) => r.document.id), ['a', 'x']);
    assert.ok(Math.abs((fused[0]?.score ?? 0) - 2 / 61) < 1e-15);
  });

  test('pools: vectorTopK and keywordTopK candidates; the reranker sees the whole fused pool before the cut', async () => {
    const vectorStore = new InMemoryVectorStore();
    const keyword = new BM25();
    const docs: Document[] = Array.from({ length: 20 }, (_, i) => ({ id: `d${i}`, text: `shared word${i}`, metadata: { source: `d${i}.md` } }));
    const vectors = docs.map((_, i) => [Math.cos(i / 10), Math.sin(i / 10), 0]);
    await vectorStore.addDocuments(docs, vectors);
    keyword.add(docs);
    const seen: number[] = [];
    const reverse: Reranker = {
      name: 'reverse',
      rerank: (_query, results, topK) => {
        seen.push(results.length);
        return Promise.resolve([...results].reverse().slice(0, topK).map((r, i) => ({ ...r, score: 100 - i })));
      },
    };
    const searcher = new HybridSearcher({ store: vectorStore, embedder: fixedEmbedder({ 'shared word19': [1, 0, 0] }), bm25: keyword, reranker: reverse });
    const out = await searcher.search('shared word19', 2, { vectorTopK: 5, keywordTopK: 7 });
    assert.equal(out.length, 2);
    assert.ok(seen[0] !== undefined && seen[0] >= 7 && seen[0] <= 12, `fused pool of ${seen[0]}`);
    const plain = new HybridSearcher({ store: vectorStore, embedder: fixedEmbedder({ 'shared word19': [1, 0, 0] }), bm25: keyword });
    const top = await plain.search('shared word19', 3);
    assert.equal(top[0]?.document.id, 'd0', 'best by vector (rank 1) and present in keyword list');
    assert.equal(top.length, 3);
    const filtered = await plain.search('shared', 3, { filter: { source: 'd5.md' } });
    assert.deepEqual(filtered.map((r) => r.document.id), ['d5']);
  });
});
