import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bestSnippet, KeywordIndex, keywordTerms, stem } from '../../../../lib/rag/keyword/keyword-index.js';

describe('text search', () => {
  test('keywordTerms lowercases, drops stop words and stems', () => {
    assert.deepEqual(keywordTerms("I'd like REFUNDS for the returned items"), ['like', 'refund', 'return', 'item']);
    assert.equal(stem('cancelled'), stem('cancel'));
    assert.equal(stem('deliveries'), stem('delivery'));
  });

  test('a title match outranks a passing body mention', () => {
    const docs = [
      { title: 'Shipping', body: 'We ship worldwide. Refunds are covered elsewhere.' },
      { title: 'Refunds', body: 'Money back within 5 days.' },
    ];
    const index = new KeywordIndex(docs, (d) => [
      { text: d.title, weight: 3 },
      { text: d.body, weight: 1 },
    ]);
    assert.equal(index.search('refund', 2)[0]?.item.title, 'Refunds');
    assert.deepEqual(index.search('the and of', 2), []);
  });

  test('bestSnippet picks the passage with the most query terms', () => {
    const text = 'Intro paragraph about nothing.\n\nDescale every two months. Scale harms the boiler.\n\nOther text.';
    assert.match(bestSnippet(text, 'how often descale', 60), /^Descale every two months\./);
  });
});
