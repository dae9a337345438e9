import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { EvalSuite } from '../../../lib/evals/eval-suite.js';
import { parseSuite } from '../../../lib/evals/load-suite.js';
import { openSnapshotStore } from '../../../lib/evals/snapshot/open-snapshot-store.js';
import { SnapshotSession, type SnapshotSessionOptions } from '../../../lib/evals/snapshot/snapshot-session.js';
import type { SnapshotStore } from '../../../lib/evals/snapshot/snapshot-store.js';
import type { EvalCase } from '../../../lib/evals/types.js';
import { ConfigFileError } from '../../../lib/core/errors/config-file-error.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { testRuntime, weatherTool } from '../../support/agent-harness.js';

const dirs: string[] = [];
after(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function snapshotCase(id: string, value?: string): EvalCase {
  return { id, input: id, vars: {}, tags: [], weight: 1, metadata: {}, assert: [{ type: 'snapshot', negate: false, weight: 1, ...(value === undefined ? {} : { value }) }] };
}

/** An agent answering `answer(prompt)`. */
function agent(answer: (prompt: string) => string): Agent {
  return new Agent({ provider: new ScriptedProvider({ respond: (request) => answer(String(request.messages.at(-1)?.content ?? '')) }), runtime: testRuntime() });
}

async function fileStore(): Promise<{ store: SnapshotStore; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'agentlib-snapshots-'));
  dirs.push(dir);
  return { store: await openSnapshotStore(`file://${dir}`), dir };
}

async function run(a: Agent, cases: EvalCase[], store: SnapshotStore, options: Partial<SnapshotSessionOptions> = {}) {
  const session = new SnapshotSession(store, { suite: 'support', now: () => Date.UTC(2026, 10, 26), ...options });
  const report = await new EvalSuite(a, cases, { snapshots: session, maxConcurrency: 2 }).run();
  return { report, session, verdicts: report.cases.map((c) => c.verdict) };
}

describe('snapshot assertions', () => {
  it('the first run writes missing snapshots and passes; the same output passes again', async () => {
    const { store, dir } = await fileStore();
    const first = await run(agent((p) => `answer to ${p}`), [snapshotCase('refund'), snapshotCase('order status')], store);
    assert.deepEqual(first.verdicts, ['pass', 'pass']);
    assert.deepEqual(first.session.counts, { matched: 0, written: 2, updated: 0, failed: 0 });
    const files = (await readdir(dir)).sort();
    assert.equal(files.length, 2);
    const written = JSON.parse(await readFile(join(dir, files.find((f) => f.includes('refund')) as string), 'utf8')) as { kind: string; version: number; data: { value: string } };
    assert.deepEqual([written.kind, written.version, written.data.value], ['eval-snapshot', 1, 'answer to refund']);
    const again = await run(agent((p) => `answer to ${p}`), [snapshotCase('refund'), snapshotCase('order status')], store);
    assert.deepEqual(again.verdicts, ['pass', 'pass']);
    assert.deepEqual(again.session.counts, { matched: 2, written: 0, updated: 0, failed: 0 });
  });

  it('a changed output fails the case with expected/actual and the first differing line; update rewrites it', async () => {
    const { store } = await fileStore();
    await run(agent(() => 'line 1\nline 2'), [snapshotCase('refund')], store);
    const changed = await run(agent(() => 'line 1\nline two'), [snapshotCase('refund')], store);
    assert.deepEqual(changed.verdicts, ['fail']);
    const failed = changed.report.cases[0]?.attempts[0]?.assertions[0];
    assert.equal(failed?.expected, 'line 1\nline 2');
    assert.equal(failed?.actual, 'line 1\nline two');
    assert.match(failed?.reason ?? '', /line 2: expected "line 2", got "line two".*--update-snapshots/);
    assert.deepEqual(changed.session.counts, { matched: 0, written: 0, updated: 0, failed: 1 });
    const updated = await run(agent(() => 'line 1\nline two'), [snapshotCase('refund')], store, { update: true });
    assert.deepEqual(updated.verdicts, ['pass']);
    assert.deepEqual(updated.session.counts, { matched: 0, written: 0, updated: 1, failed: 0 });
    assert.deepEqual((await run(agent(() => 'line 1\nline two'), [snapshotCase('refund')], store)).verdicts, ['pass']);
  });

  it('in CI mode a missing snapshot fails the case and nothing is written (update still writes)', async () => {
    const { store, dir } = await fileStore();
    const ci = await run(agent(() => 'x'), [snapshotCase('new case')], store, { ci: true });
    assert.deepEqual(ci.verdicts, ['fail']);
    assert.match(ci.report.cases[0]?.attempts[0]?.assertions[0]?.reason ?? '', /CI does not write new snapshots/);
    assert.deepEqual(await readdir(dir), []);
    assert.deepEqual((await run(agent(() => 'x'), [snapshotCase('new case')], store, { ci: true, update: true })).verdicts, ['pass']);
    assert.equal((await readdir(dir)).length, 1);
  });

  it('tool-calls snapshots hold the tool calls from the trace; repeat k compares later runs with the first', async () => {
    const { store } = await fileStore();
    let call = 0;
    const provider = new ScriptedProvider({
      respond: (request) => {
        const last = request.messages.at(-1);
        if (last?.role === 'tool') return 'done';
        call++;
        return { toolCalls: [{ id: `c${call}`, toolName: 'get_weather', parameters: { city: call % 2 === 1 ? 'Faro' : 'Porto' } }] };
      },
    });
    const a = new Agent({ provider, tools: [weatherTool()], runtime: testRuntime() });
    const session = new SnapshotSession(store, { suite: 'support' });
    const report = await new EvalSuite(a, [snapshotCase('weather', 'tool-calls')], { snapshots: session, repeat: 2, maxConcurrency: 2 }).run();
    const stored = await store.get((await store.keys())[0] as string);
    assert.equal(stored?.subject, 'tool-calls');
    assert.match(stored?.value ?? '', /^get_weather \{"city":"(Faro|Porto)"\}$/);
    assert.equal(report.cases[0]?.verdict, 'fail', 'the second run called the tool with another city');
    assert.equal(report.cases[0]?.flaky, true);
    assert.deepEqual(session.counts, { matched: 0, written: 1, updated: 0, failed: 1 });
  });

  it('finds snapshots no case used, and removes them', async () => {
    const { store } = await fileStore();
    await run(agent(() => 'x'), [snapshotCase('kept'), snapshotCase('dropped')], store);
    const { session } = await run(agent(() => 'x'), [snapshotCase('kept')], store);
    assert.equal((await session.obsolete()).length, 1);
    assert.match((await session.removeObsolete())[0] ?? '', /^support\.dropped-/);
    assert.deepEqual(await session.obsolete(), []);
  });

  it('without a snapshot store the assertion fails (never passes silently); not-snapshot is refused when the suite loads', async () => {
    const report = await new EvalSuite(agent(() => 'x'), [snapshotCase('a')]).run();
    assert.equal(report.cases[0]?.verdict, 'fail');
    assert.match(report.cases[0]?.attempts[0]?.assertions[0]?.reason ?? '', /needs a snapshot store/);
    await assert.rejects(parseSuite('tests:\n  - input: hi\n    assert:\n      - type: not-snapshot\n', { source: 'suite.yaml' }), (e: unknown) => ConfigFileError.isInstance(e) && /suite\.yaml:4:\d+.*cannot be negated/s.test((e as Error).message));
    await assert.rejects(parseSuite('tests:\n  - input: hi\n    assert:\n      - type: snapshot\n        value: tools\n', { source: 'suite.yaml' }), (e: unknown) => ConfigFileError.isInstance(e) && /output or tool-calls/.test((e as Error).message));
  });
});
