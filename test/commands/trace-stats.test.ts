import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseSince } from '../../commands/trace/since.js';
import type { TraceStatsReport } from '../../lib/trace/analytics/index.js';
import { agentlibTrace, scriptedTrace, T0, traceProject } from './trace-helpers.js';

const HOUR = 3_600_000;

describe('agentlib trace stats', () => {
  let project: ReturnType<typeof traceProject>;
  before(async () => {
    project = traceProject();
    const alpha = await scriptedTrace({ runId: 'run_aaa111', agent: 'alpha', start: T0, rounds: [[{ tool: 'slow_a' }, { tool: 'slow_b' }], [{ tool: 'get_weather', args: { city: 'Oslo' } }]], failing: ['slow_b'] });
    const beta = await scriptedTrace({ runId: 'run_aab222', agent: 'beta', start: T0 + 2 * HOUR, rounds: [[{ tool: 'get_weather', args: { city: 'Bergen' } }]] });
    for (const trace of [alpha, beta]) await trace.toJSONL(join(project.traces, `${trace.runId}.jsonl`));
  });
  after(() => project.cleanup());

  test('tables of tools, models and agents, and sparklines of cost and latency over time', async () => {
    const run = await agentlibTrace(['trace', 'stats'], project.dir);
    assert.equal(run.code, 0, run.err);
    assert.match(run.out, /^2 run\(s\), /);
    assert.match(run.out, /Tools\n┌/);
    assert.match(run.out, /│ get_weather │ 2 +│ 100\.0% +│ 0 +│ 30ms/);
    assert.match(run.out, /│ slow_b +│ 1 +│ 0\.0% /);
    assert.match(run.out, /Models\n┌[\s\S]*gpt-4o-mini/);
    assert.match(run.out, /Agents\n┌[\s\S]*│ alpha /);
    assert.match(run.out, /Cost \(.*per hour\)\n/);
    assert.match(run.out, /Median run duration/);
  });

  test('--by picks one table; --json is one document; --since filters by run start', async () => {
    const tools = await agentlibTrace(['trace', 'stats', '--by', 'tool'], project.dir);
    assert.match(tools.out, /Tools/);
    assert.doesNotMatch(tools.out, /Models|Agents/);
    const json = await agentlibTrace(['trace', 'stats', '--json', '--since', '2026-01-01'], project.dir);
    const doc = JSON.parse(json.out) as TraceStatsReport;
    assert.equal(doc.version, 1);
    assert.equal(doc.runs, 0, 'T0 is in 2023');
    const all = JSON.parse((await agentlibTrace(['trace', 'stats', '--json'], project.dir)).out) as TraceStatsReport;
    assert.equal(all.runs, 2);
    assert.deepEqual(all.agents.map((a) => a.name).sort(), ['alpha', 'beta']);
    assert.equal(all.tools.find((t) => t.name === 'slow_b')?.successRate, 0);
  });

  test('a bad --by or --since is a usage error (exit 2)', async () => {
    assert.equal((await agentlibTrace(['trace', 'stats', '--by', 'cost'], project.dir)).code, 2);
    const bad = await agentlibTrace(['trace', 'stats', '--since', 'last week'], project.dir);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--since must be an age like 30m/);
  });

  test('parseSince: ages and dates', () => {
    assert.equal(parseSince('7d', 10 * 86_400_000), 3 * 86_400_000);
    assert.equal(parseSince('30m', 3_600_000), 1_800_000);
    assert.equal(parseSince('2026-01-31', 0), Date.UTC(2026, 0, 31));
  });
});

describe('agentlib trace --store', () => {
  let project: ReturnType<typeof traceProject>;
  before(async () => {
    project = traceProject();
    const { SQLiteTraceStore } = await import('../../lib/trace/stores/index.js');
    const store = new SQLiteTraceStore(join(project.dir, 'traces.db'));
    const alpha = await scriptedTrace({ runId: 'run_aaa111', agent: 'alpha', start: T0, rounds: [[{ tool: 'get_weather', args: { city: 'Oslo' } }]] });
    const beta = await scriptedTrace({ runId: 'run_bbb222', agent: 'beta', start: T0 + HOUR, rounds: [] });
    await store.save(alpha.toJSON());
    await store.save(beta.toJSON());
    await store.close();
  });
  after(() => project.cleanup());

  test('ls, show, stats and diff read a SQLite store; ls filters by agent', async () => {
    const ls = await agentlibTrace(['trace', 'ls', '--store', 'sqlite://traces.db'], project.dir);
    assert.equal(ls.code, 0, ls.err);
    assert.deepEqual(ls.out.trimEnd().split('\n').slice(1).map((line) => line.split(/\s+/)[0]), ['run_bbb222', 'run_aaa111']);
    const alphaOnly = JSON.parse((await agentlibTrace(['trace', 'ls', '--store', 'sqlite://traces.db', '--agent', 'alpha', '--json'], project.dir)).out) as { total: number; traces: Array<{ runId: string }> };
    assert.deepEqual(alphaOnly.traces.map((t) => t.runId), ['run_aaa111']);
    const show = await agentlibTrace(['trace', 'show', 'aaa', '--store', 'sqlite://traces.db', '--json'], project.dir);
    assert.equal(show.code, 0, show.err);
    assert.equal((JSON.parse(show.out) as { trace: { runId: string } }).trace.runId, 'run_aaa111');
    const stats = JSON.parse((await agentlibTrace(['trace', 'stats', '--store', 'sqlite://traces.db', '--json'], project.dir)).out) as TraceStatsReport;
    assert.equal(stats.runs, 2);
    const diff = await agentlibTrace(['trace', 'diff', 'run_aaa111', 'run_bbb222', '--store', 'sqlite://traces.db', '--json'], project.dir);
    assert.equal(diff.code, 0, diff.err);
  });

  test('an unknown id or a store URL of another kind is a usage error', async () => {
    const missing = await agentlibTrace(['trace', 'show', 'zzz', '--store', 'sqlite://traces.db'], project.dir);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /no trace "zzz" in sqlite:\/\/traces\.db/);
    const bad = await agentlibTrace(['trace', 'ls', '--store', 'redis://localhost'], project.dir);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--store: .*memory.*file.*sqlite/);
  });
});

describe('agentlib trace export --otlp <collector URL>', () => {
  let project: ReturnType<typeof traceProject>;
  before(async () => {
    project = traceProject();
    const alpha = await scriptedTrace({ runId: 'run_aaa111', agent: 'alpha', start: T0, rounds: [[{ tool: 'get_weather', args: { city: 'Oslo' } }]] });
    await alpha.toJSONL(join(project.traces, 'run_aaa111.jsonl'));
  });
  after(() => project.cleanup());

  test('sends the spans (protobuf by default, JSON on request); a refusing collector exits 3', async () => {
    const { otlpReceiver } = await import('../lib/trace/otlp/otlp-receiver.js');
    const { decodeProtobufRequest } = await import('../lib/trace/otlp/otlp-schema.js');
    const receiver = await otlpReceiver([200, 200, 400]);
    try {
      const sent = await agentlibTrace(['trace', 'export', 'run_aaa111', '--otlp', receiver.url], project.dir);
      assert.equal(sent.code, 0, sent.err);
      assert.match(sent.err, /sent \d+ span\(s\) of .*run_aaa111.* to http:\/\/127\.0\.0\.1:\d+\/v1\/traces \(http\/protobuf\)/);
      const decoded = decodeProtobufRequest(receiver.received[0]?.body ?? Buffer.alloc(0));
      assert.ok(decoded.spans.some((s) => s.name === 'execute_tool get_weather'));
      const json = await agentlibTrace(['trace', 'export', 'run_aaa111', '--otlp', receiver.url, '--otlp-protocol', 'json'], project.dir);
      assert.equal(json.code, 0, json.err);
      assert.equal(receiver.received[1]?.contentType, 'application/json');
      const refused = await agentlibTrace(['trace', 'export', 'run_aaa111', '--otlp', receiver.url], project.dir);
      assert.equal(refused.code, 3);
      assert.match(refused.err, /OTLP export of .*run_aaa111.* failed/);
    } finally {
      await receiver.close();
    }
  });
});
