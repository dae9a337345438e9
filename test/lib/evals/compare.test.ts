import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CaseResult } from '../../../lib/evals/case-result.js';
import { compareReports } from '../../../lib/evals/compare.js';
import { EvalReport } from '../../../lib/evals/eval-report.js';
import { mergeReports } from '../../../lib/evals/merge-reports.js';
import { selectCases, shardOf } from '../../../lib/evals/select-cases.js';
import type { EvalCase, Verdict } from '../../../lib/evals/types.js';

function result(id: string, verdict: Verdict, latencyMs = 10, costUsd = 0.001): CaseResult {
  const attempts = verdict === 'skip' ? [] : [{ verdict, score: verdict === 'pass' ? 1 : 0, output: '', latencyMs, promptTokens: 1, completionTokens: 1, totalTokens: 2, costUsd, iterations: 1, toolCalls: [], assertions: [] }];
  return { id, input: id, tags: [], weight: 1, metadata: {}, verdict, score: verdict === 'pass' ? 1 : 0, flaky: false, attempts };
}

function report(cases: CaseResult[], shard?: { index: number; total: number }): EvalReport {
  return new EvalReport({ suite: 's', startedAt: '2026-01-01T00:00:00.000Z', durationMs: 5, repeat: 1, cancelled: false, cases, ...(shard === undefined ? {} : { shard }) });
}

describe('compareReports', () => {
  it('a regression is a pass that became a non-pass; skips are not compared', () => {
    const base = report([result('a', 'pass'), result('b', 'fail'), result('c', 'pass'), result('d', 'pass'), result('gone', 'pass')]);
    const now = report([result('a', 'fail'), result('b', 'pass'), result('c', 'skip'), result('d', 'error', 30, 0.002), result('new', 'pass')]);
    const diff = compareReports(base, now);
    assert.deepEqual(diff.regressions, [{ id: 'a', from: 'pass', to: 'fail' }, { id: 'd', from: 'pass', to: 'error' }]);
    assert.deepEqual(diff.improvements, [{ id: 'b', from: 'fail', to: 'pass' }]);
    assert.deepEqual([diff.added, diff.removed], [['new'], ['gone']]);
    assert.equal(diff.regressed, true);
  });

  it('accuracy falling by more than the margin is a regression even with no case flipping', () => {
    const base = report([result('a', 'pass'), result('b', 'pass')]);
    const now = report([result('a', 'pass'), result('b', 'pass'), result('c', 'fail')]);
    assert.equal(compareReports(base, now).regressed, true);
    assert.equal(compareReports(base, now, { margin: 0.5 }).regressed, false);
    assert.equal(compareReports(base, base).regressed, false);
  });
});

describe('shards and merge', () => {
  const cases: EvalCase[] = Array.from({ length: 40 }, (_, i) => ({ id: `case ${i}`, input: 'x', vars: {}, assert: [], tags: i % 2 === 0 ? ['even'] : [], weight: 1, metadata: { tier: i < 10 ? 'free' : 'paid' } }));

  it('--shard i/n slices are disjoint, cover every case and do not move when cases are added', () => {
    const slices = [1, 2, 3].map((index) => selectCases(cases, { shard: { index, total: 3 } }).map((c) => c.id));
    assert.equal(slices.flat().length, 40);
    assert.equal(new Set(slices.flat()).size, 40);
    assert.ok(slices.every((s) => s.length > 5));
    const more = [...cases, { ...cases[0], id: 'case new' } as EvalCase];
    assert.deepEqual(selectCases(more, { shard: { index: 1, total: 3 } }).map((c) => c.id).filter((id) => id !== 'case new'), slices[0]);
    assert.equal(shardOf('case 1', 3), shardOf('case 1', 3));
  });

  it('filters by pattern, tag and metadata', () => {
    assert.equal(selectCases(cases, { pattern: /^case 1\d$/ }).length, 10);
    assert.equal(selectCases(cases, { tags: ['even'] }).length, 20);
    assert.equal(selectCases(cases, { metadata: { tier: 'free' } }).length, 10);
  });

  it('mergeReports combines shard reports in shard order and refuses a case twice', () => {
    const merged = mergeReports([report([result('c', 'fail')], { index: 2, total: 2 }), report([result('a', 'pass'), result('b', 'pass')], { index: 1, total: 2 })]);
    assert.deepEqual(merged.cases.map((c) => c.id), ['a', 'b', 'c']);
    assert.deepEqual(merged.counts, { pass: 2, fail: 1, error: 0, skip: 0 });
    assert.throws(() => mergeReports([report([result('a', 'pass')]), report([result('a', 'pass')])]), /more than one report/);
  });
});

describe('report statistics', () => {
  it('latency percentiles, tokens, cost per case', () => {
    const r = report(Array.from({ length: 100 }, (_, i) => result(`c${i}`, 'pass', i + 1)));
    assert.deepEqual(r.summary.latencyMs.p50, 50);
    assert.deepEqual(r.summary.latencyMs.p95, 95);
    assert.deepEqual(r.summary.latencyMs.p99, 99);
    assert.equal(r.summary.tokens.total, 200);
    assert.ok(Math.abs(r.summary.costPerCaseUsd - 0.001) < 1e-12);
  });

  it('the HTML is one self-contained page that loads nothing', () => {
    const html = report([result('a <b>', 'fail'), result('b', 'pass')]).toHtml();
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
    assert.doesNotMatch(html, /<script|<link|src=|href=|url\(/i);
    assert.match(html, /a &lt;b&gt;/);
    assert.match(html, /<svg role="img" aria-label="verdicts"/);
  });
});
