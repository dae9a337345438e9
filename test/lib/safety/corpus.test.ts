import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { detectPii } from '../../../lib/safety/pii/detect-pii.js';
import { PII_TYPES } from '../../../lib/safety/pii/pii-types.js';
import { OutputScreener } from '../../../lib/safety/screening/output-screener.js';
import { safetyCorpora, scoreInjection, scorePii } from '../../support/safety-corpus.js';

// The goals of issue 17, held on the labelled corpora of fixtures/safety/ (bench/safety-eval.ts
// prints the same figures next to the peer libraries).
const corpora = safetyCorpora();

describe('detectors on the labelled corpora', () => {
  test('corpus sizes: PII positives and traps, injections, at least 200 benign tool outputs', () => {
    assert.ok(corpora.pii.filter((s) => s.entities.length > 0).length >= 90);
    assert.ok(corpora.pii.filter((s) => s.entities.length === 0).length >= 50);
    assert.ok(corpora.injections.length >= 100);
    assert.ok(corpora.benign.length >= 200);
  });

  test('PII: F1 ≥ 0.95 on every type', () => {
    const perType = scorePii(corpora.pii, PII_TYPES, (text, type) => {
      const found = detectPii(text).filter((m) => m.type === type);
      return { flagged: found.length > 0, caught: (value) => found.some((m) => m.text === value) };
    });
    for (const [type, s] of Object.entries(perType)) assert.ok(s.f1 >= 0.95, `${type}: F1 ${s.f1.toFixed(3)} (tp ${s.tp}, fp ${s.fp}, fn ${s.fn})`);
  });

  test('injection: recall ≥ 0.9 with ≤ 2 % false positives on benign tool output', () => {
    const screener = new OutputScreener();
    const s = scoreInjection(corpora.injections, corpora.benign, (text) => screener.find(text).length > 0);
    assert.ok(s.recall >= 0.9, `recall ${s.recall.toFixed(3)}`);
    assert.ok(s.falsePositiveRate <= 0.02, `false positives ${(s.falsePositiveRate * 100).toFixed(1)} %`);
  });
});
