import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { CaseResult } from '../../../lib/evals/case-result.js';
import { EvalReport } from '../../../lib/evals/eval-report.js';
import type { HistoryStore } from '../../../lib/evals/history/history-store.js';
import { openHistoryStore } from '../../../lib/evals/history/open-history-store.js';
import { StorageUrlError } from '../../../lib/storage/errors/index.js';

function report(suite: string, passes: number, fails: number, startedAt: string): EvalReport {
  const cases: CaseResult[] = [];
  for (let i = 0; i < passes + fails; i++) {
    const verdict = i < passes ? 'pass' : 'fail';
    cases.push({ id: `c${i}`, input: '', tags: [], weight: 1, metadata: {}, verdict, score: verdict === 'pass' ? 1 : 0, flaky: false, attempts: [{ verdict, score: 1, output: '', latencyMs: 10 * (i + 1), promptTokens: 1, completionTokens: 1, totalTokens: 2, costUsd: 0.01, iterations: 1, toolCalls: [], assertions: [] }] });
  }
  return new EvalReport({ suite, startedAt, durationMs: 42, repeat: 1, cancelled: false, cases });
}

const dir = mkdtempSync(join(tmpdir(), 'agentlib-history-'));
const BACKENDS: readonly (readonly [string, () => HistoryStore])[] = [
  ['memory://', () => openHistoryStore('memory://')],
  ['sqlite://', () => openHistoryStore('sqlite://history.db', { cwd: dir })],
];

for (const [name, open] of BACKENDS) {
  describe(`HistoryStore conformance: ${name}`, () => {
    test('records report totals and lists a suite oldest first; limit keeps the newest', async () => {
      const store = open();
      const suite = `suite-${name}-${Date.now()}`;
      try {
        const first = await store.record(report(suite, 3, 1, '2026-01-01T00:00:00.000Z'));
        assert.deepEqual(first, { suite, startedAt: '2026-01-01T00:00:00.000Z', cases: 4, accuracy: 0.75, pass: 3, fail: 1, error: 0, skip: 0, costUsd: 0.04, latencyP50Ms: 20, durationMs: 42 });
        await store.record(report(suite, 4, 0, '2026-01-02T00:00:00.000Z'));
        await store.record(report('other', 0, 2, '2026-01-03T00:00:00.000Z'));
        await store.record(report(suite, 1, 1, '2026-01-04T00:00:00.000Z'));
        assert.deepEqual((await store.list(suite)).map((e) => [e.startedAt.slice(0, 10), e.accuracy]), [['2026-01-01', 0.75], ['2026-01-02', 1], ['2026-01-04', 0.5]]);
        assert.deepEqual((await store.list(suite, { limit: 2 })).map((e) => e.startedAt.slice(0, 10)), ['2026-01-02', '2026-01-04']);
        assert.deepEqual(await store.list('nobody'), []);
        await assert.rejects(async () => store.list(suite, { limit: 0 }), /limit must be an integer ≥ 1/);
      } finally {
        store.close();
      }
    });
  });
}

describe('HistoryStore: SQLite persists across opens; URLs', () => {
  test('a reopened SQLite history keeps its runs (versioned schema, shared connection)', async () => {
    const a = openHistoryStore('sqlite://persist.db', { cwd: dir });
    await a.record(report('kept', 1, 0, '2026-02-01T00:00:00.000Z'));
    a.close();
    const b = openHistoryStore('sqlite://persist.db', { cwd: dir });
    try {
      assert.equal((await b.list('kept')).length, 1);
    } finally {
      b.close();
    }
  });

  test('other schemes are refused, naming the allowed ones', () => {
    assert.throws(() => openHistoryStore('redis://127.0.0.1:6379'), (error: unknown) => StorageUrlError.isInstance(error) && /memory:\/\/, sqlite:\/\//.test((error as Error).message));
  });
});
