import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FilterError } from '../../../../lib/core/errors/filter-error.js';
import { BM25 } from '../../../../lib/rag/keyword/bm25.js';
import { bm25Tokens } from '../../../../lib/rag/keyword/tokenize.js';
import { referenceBm25 } from '../reference-bm25.js';

const TEXTS = [
  'Refunds are paid within five business days of the return arriving.',
  'Shipping is free on orders over fifty euros; refunds for shipping are not paid.',
  'The espresso machine needs descaling every two months. Descaling keeps the boiler clean.',
  'Returns: send the item back within 30 days for a refund.',
  'Our office is closed on public holidays.',
  'Refund refund refund: the word appears three times in this short line.',
];

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('BM25', () => {
  test('terms: lowercase [a-z0-9]+, English stop words dropped, no stemming', () => {
    assert.deepEqual(bm25Tokens("The Refunds aren't PAID in 5 days!"), ['refunds', 'paid', '5', 'days']);
    assert.deepEqual(bm25Tokens('the and of', { stopWords: false }), ['the', 'and', 'of']);
  });

  test('scores equal the reference formula (k1 1.5, b 0.75), best first', () => {
    const index = new BM25();
    index.add(TEXTS.map((text, i) => ({ id: `d${i}`, text, metadata: {} })));
    for (const query of ['refund paid', 'descaling boiler', 'shipping refunds days', 'office']) {
      const got = index.search(query, 10).map((r) => [r.document.id, r.score] as const);
      const want = referenceBm25(TEXTS, query);
      assert.equal(got.length, want.length, query);
      want.forEach(([i, score], rank) => {
        assert.equal(got[rank]?.[0], `d${i}`, `${query} rank ${rank}`);
        assert.ok(Math.abs((got[rank]?.[1] ?? 0) - score) < 1e-12, `${query}: ${got[rank]?.[1]} vs ${score}`);
      });
    }
  });

  test('k1 and b are honoured', () => {
    const index = new BM25({ k1: 0.9, b: 0.4 });
    index.add(TEXTS.map((text) => ({ text, metadata: {} })));
    const want = referenceBm25(TEXTS, 'refund paid', 0.9, 0.4);
    assert.deepEqual(index.search('refund paid', 10).map((r) => Number(r.score.toFixed(12))), want.map(([, s]) => Number(s.toFixed(12))));
  });

  test('incremental add and delete keep the statistics of the live collection', () => {
    const random = seeded(7);
    const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];
    const texts = Array.from({ length: 300 }, () => Array.from({ length: 3 + Math.floor(random() * 20) }, () => words[Math.floor(random() * words.length)]).join(' '));
    const index = new BM25();
    index.add(texts.map((text, i) => ({ id: String(i), text, metadata: {} })));
    // delete two thirds (forces the compaction path), then add some back
    const deleted = new Set<number>();
    for (let i = 0; i < texts.length; i++) if (i % 3 !== 0) deleted.add(i);
    assert.equal(index.delete([...deleted].map(String)), deleted.size);
    for (let i = 1; i < 30; i += 3) {
      deleted.delete(i);
    }
    index.add([...Array(30).keys()].filter((i) => i % 3 === 1).map((i) => ({ id: String(i), text: texts[i] as string, metadata: {} })));
    const live = [...texts.keys()].filter((i) => !deleted.has(i));
    assert.equal(index.size, live.length);
    const liveTexts = live.map((i) => texts[i] as string);
    for (const query of ['alpha beta', 'kappa', 'zeta eta theta']) {
      const got = index.search(query, 10).map((r) => r.score);
      const want = referenceBm25(liveTexts, query).slice(0, 10).map(([, s]) => s);
      assert.equal(got.length, want.length);
      got.forEach((score, k) => assert.ok(Math.abs(score - (want[k] as number)) < 1e-9, `${query} #${k}`));
    }
  });

  test('re-adding an id replaces the document', () => {
    const index = new BM25();
    index.add([{ id: 'a', text: 'apples', metadata: {} }]);
    index.add([{ id: 'a', text: 'pears', metadata: {} }]);
    assert.equal(index.size, 1);
    assert.deepEqual(index.search('apples', 3), []);
    assert.equal(index.search('pears', 3)[0]?.document.id, 'a');
  });

  test('filters restrict results, not statistics; unknown operators are refused', () => {
    const index = new BM25();
    index.add(TEXTS.map((text, i) => ({ id: `d${i}`, text, metadata: { source: i % 2 === 0 ? 'even.md' : 'odd.md', n: i } })));
    const all = index.search('refund', 10);
    const even = index.search('refund', 10, { source: 'even.md' });
    assert.deepEqual(even.map((r) => r.document.id), all.filter((r) => r.document.metadata['source'] === 'even.md').map((r) => r.document.id));
    assert.deepEqual(even.map((r) => r.score), all.filter((r) => r.document.metadata['source'] === 'even.md').map((r) => r.score));
    assert.deepEqual(index.search('refund', 10, { n: { $gte: 3 } }).map((r) => r.document.id).sort(), ['d3', 'd5']);
    assert.throws(() => index.search('refund', 3, { source: { $regex: 'x' } } as never), (error: unknown) => FilterError.isInstance(error) && error.kind === 'unsupported-operator');
  });

  test('no query terms, no documents or topK 0 give nothing; topK cuts', () => {
    const index = new BM25();
    assert.deepEqual(index.search('refund', 3), []);
    index.add(TEXTS.map((text) => ({ text, metadata: {} })));
    assert.deepEqual(index.search('the of and', 3), []);
    assert.deepEqual(index.search('refund', 0), []);
    assert.equal(index.search('refund', 1).length, 1);
    index.clear();
    assert.equal(index.size, 0);
    assert.deepEqual(index.search('refund', 3), []);
  });
});
