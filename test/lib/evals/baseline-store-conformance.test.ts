import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { BaselineStore } from '../../../lib/evals/baseline/baseline-store.js';
import { openBaselineStore } from '../../../lib/evals/baseline/open-baseline-store.js';
import type { CaseResult } from '../../../lib/evals/case-result.js';
import { compareReports } from '../../../lib/evals/compare.js';
import { EvalReport } from '../../../lib/evals/eval-report.js';
import type { Verdict } from '../../../lib/evals/types.js';
import { CorruptRecordError, InvalidStoreIdError, SchemaVersionError, StorageUrlError } from '../../../lib/storage/errors/index.js';
import { HOSTILE_IDS } from '../../support/hostile-ids.js';
import { BACKENDS, cleanupBackends, filesUnderRoot } from './document-backends.js';

function result(id: string, verdict: Verdict): CaseResult {
  const attempt = { verdict, score: verdict === 'pass' ? 1 : 0, output: `out ${id} ünïcødé 😀`, latencyMs: 10, promptTokens: 1, completionTokens: 1, totalTokens: 2, costUsd: 0.001, iterations: 1, toolCalls: ['lookup'], assertions: [], trace: { type: 'trace' as const, version: 1, runId: `run-${id}`, steps: [] } };
  return { id, input: id, tags: ['t'], weight: 1, metadata: { tier: 'free' }, verdict, score: attempt.score, flaky: false, attempts: [attempt] } as unknown as CaseResult;
}

function report(suite: string, verdicts: Record<string, Verdict>): EvalReport {
  return new EvalReport({ suite, startedAt: '2026-11-01T10:00:00.000Z', durationMs: 5, repeat: 1, cancelled: false, cases: Object.entries(verdicts).map(([id, v]) => result(id, v)) });
}

after(cleanupBackends);

for (const backend of BACKENDS) {
  describe(`BaselineStore conformance: ${backend.name}`, backend.options, () => {
    const open = async (place: string): Promise<BaselineStore> => new BaselineStore(await backend.open(place, 'baseline'));

    test('saves a report under a name and reads it back; verdicts compare as they were', async () => {
      const store = await open(await backend.place());
      try {
        const main = report('support', { refund: 'pass', 'order status': 'pass', 'edge case': 'fail' });
        const info = await store.save('main', main, { now: () => Date.UTC(2026, 10, 2) });
        assert.deepEqual(info, { name: 'main', suite: 'support', startedAt: '2026-11-01T10:00:00.000Z', savedAt: '2026-11-02T00:00:00.000Z', accuracy: 1 / 3 * 2, cases: 3 });
        const got = await store.get('main');
        assert.ok(got instanceof EvalReport);
        assert.deepEqual(got.cases.map((c) => [c.id, c.verdict, c.attempts[0]?.output]), main.cases.map((c) => [c.id, c.verdict, c.attempts[0]?.output]));
        const now = report('support', { refund: 'fail', 'order status': 'pass', 'edge case': 'pass' });
        const diff = compareReports(got, now);
        assert.deepEqual(diff.regressions, [{ id: 'refund', from: 'pass', to: 'fail' }]);
        assert.equal(await store.get('nope'), undefined);
        assert.equal(await store.info('nope'), undefined);
      } finally {
        await store.close();
      }
    });

    test('traces are dropped unless keepTraces; saving a name again replaces it; list and delete', async () => {
      const store = await open(await backend.place());
      try {
        await store.save('main', report('s', { a: 'pass' }));
        assert.equal((await store.get('main'))?.cases[0]?.attempts[0]?.trace, undefined);
        await store.save('with-traces', report('s', { a: 'pass' }), { keepTraces: true });
        assert.equal((await store.get('with-traces'))?.cases[0]?.attempts[0]?.trace?.runId, 'run-a');
        await store.save('main', report('s', { a: 'fail', b: 'pass' }));
        assert.deepEqual((await store.get('main'))?.cases.map((c) => c.verdict), ['fail', 'pass']);
        assert.deepEqual((await store.list()).map((i) => [i.name, i.cases]), [['main', 2], ['with-traces', 1]]);
        assert.equal(await store.delete('main'), true);
        assert.equal(await store.delete('main'), false);
        assert.deepEqual((await store.list()).map((i) => i.name), ['with-traces']);
      } finally {
        await store.close();
      }
    });

    test('every hostile name is refused with InvalidStoreIdError and nothing is written', async () => {
      const place = await backend.place();
      const store = await open(place);
      const before = await filesUnderRoot();
      try {
        for (const id of HOSTILE_IDS) {
          await assert.rejects(store.save(id, report('s', { a: 'pass' })), InvalidStoreIdError, `save ${JSON.stringify(id)}`);
          await assert.rejects(store.get(id), InvalidStoreIdError, `get ${JSON.stringify(id)}`);
          await assert.rejects(store.delete(id), InvalidStoreIdError, `delete ${JSON.stringify(id)}`);
        }
        assert.deepEqual(await store.list(), []);
        assert.deepEqual(await filesUnderRoot(), before);
      } finally {
        await store.close();
      }
    });

    test('a corrupt record and a newer record version are typed errors naming the baseline', async () => {
      const place = await backend.place();
      const raw = await backend.open(place, 'baseline');
      const store = new BaselineStore(raw);
      try {
        await raw.put('broken', '{"kind":"eval-baseline","version":1');
        await raw.put('future', JSON.stringify({ kind: 'eval-baseline', version: 99, data: {} }));
        await raw.put('other', JSON.stringify({ kind: 'session', version: 1, data: {} }));
        await assert.rejects(store.get('broken'), (e: unknown) => CorruptRecordError.isInstance(e) && /baseline "broken"/.test((e as Error).message));
        await assert.rejects(store.get('future'), SchemaVersionError);
        await assert.rejects(store.get('other'), CorruptRecordError);
      } finally {
        await store.close();
      }
    });

    if (backend.persistent) {
      test('a baseline saved by one store is read by another on the same place; collections are apart', async () => {
        const place = await backend.place();
        const first = await open(place);
        await first.save('main', report('s', { a: 'pass' }));
        await first.close();
        const second = await open(place);
        const snapshots = await backend.open(place, 'snapshot');
        try {
          assert.deepEqual((await second.get('main'))?.cases.map((c) => c.id), ['a']);
          if (backend.name !== 'file') assert.deepEqual(await snapshots.list(), []);
        } finally {
          await second.close();
          await snapshots.close();
        }
      });
    }
  });
}

describe('openBaselineStore', () => {
  test('refuses schemes a baseline cannot live in, naming the allowed ones', async () => {
    await assert.rejects(openBaselineStore('lancedb://x'), (e: unknown) => StorageUrlError.isInstance(e) && /memory:\/\/, file:\/\/, sqlite:\/\/, redis:\/\/, postgres:\/\//.test((e as Error).message));
    await assert.rejects(openBaselineStore('http://example.com'), StorageUrlError);
  });

  test('memory:// works end to end', async () => {
    const store = await openBaselineStore('memory://');
    await store.save('x', report('s', { a: 'pass' }));
    assert.equal((await store.list())[0]?.name, 'x');
    await store.close();
  });
});
