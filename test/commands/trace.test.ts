import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CommandArguments, CommandContext } from '../../commands/command-module.js';
import { viewTrace } from '../../commands/trace/view.js';
import { AgentTrace } from '../../lib/trace/agent-trace.js';
import type { OtlpTraceRequest } from '../../lib/trace/otel-types.js';
import { displayWidth } from '../../lib/core/display-width.js';
import { memoryIO } from '../support/cli-io.js';
import { cjkTrace } from '../tui/trace-viewer/traces.js';
import { agentlibTrace, scriptedTrace, T0, traceProject, writeRaw } from './trace-helpers.js';

const HOUR = 3_600_000;

describe('agentlib trace (in-process)', () => {
  let project: ReturnType<typeof traceProject>;
  before(async () => {
    project = traceProject();
    // alpha: parallel slow_a (60 ms) + slow_b (10 ms, fails), then get_weather(Oslo)
    const alpha = await scriptedTrace({ runId: 'run_aaa111', agent: 'alpha', start: T0, rounds: [[{ tool: 'slow_a' }, { tool: 'slow_b' }], [{ tool: 'get_weather', args: { city: 'Oslo' } }]], failing: ['slow_b'] });
    // beta (newest): get_weather(Bergen), then slow_a
    const beta = await scriptedTrace({ runId: 'run_aab222', agent: 'beta', start: T0 + 2 * HOUR, rounds: [[{ tool: 'get_weather', args: { city: 'Bergen' } }], [{ tool: 'slow_a' }]] });
    // gamma (middle): no tools
    const gamma = await scriptedTrace({ runId: 'run_ccc333', agent: 'gamma', start: T0 + HOUR, rounds: [] });
    for (const trace of [alpha, beta, gamma]) await trace.toJSONL(join(project.traces, `${trace.runId}.jsonl`));
  });
  after(() => project.cleanup());

  test('ls: newest first, with agent, status, duration, tokens and cost', async () => {
    const run = await agentlibTrace(['trace', 'ls'], project.dir);
    assert.equal(run.code, 0, run.err);
    const lines = run.out.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^ID\s+AGENT\s+STATUS\s+STARTED\s+DURATION\s+STEPS\s+TOKENS\s+COST$/);
    assert.deepEqual(lines.slice(1).map((line) => line.split(/\s+/)[1]), ['beta', 'gamma', 'alpha']);
    const alpha = lines[3] ?? '';
    assert.match(alpha, /^run_aaa111\s+alpha\s+completed\s/);
    assert.match(alpha, /\s150ms\s+8\s+600\s+\$0\.00011$/);

    const json = await agentlibTrace(['trace', 'ls', '--json', '--limit', '2'], project.dir);
    const doc = JSON.parse(json.out) as { version: number; total: number; traces: Array<Record<string, unknown>> };
    assert.equal(doc.version, 1);
    assert.equal(doc.total, 3);
    assert.deepEqual(doc.traces.map((t) => t['id']), ['run_aab222', 'run_ccc333']);
    assert.deepEqual(
      { agent: doc.traces[0]?.['agent'], status: doc.traces[0]?.['status'], model: doc.traces[0]?.['model'], startedAt: doc.traces[0]?.['startedAt'], toolCalls: doc.traces[0]?.['toolCalls'], file: doc.traces[0]?.['file'] },
      { agent: 'beta', status: 'completed', model: 'gpt-4o-mini', startedAt: T0 + 2 * HOUR, toolCalls: 2, file: join('.agentlib', 'traces', 'run_aab222.jsonl') },
    );

    const limited = await agentlibTrace(['trace', 'ls', '--limit', '1'], project.dir);
    assert.equal(limited.out.trimEnd().split('\n').length, 2);
    assert.match(limited.err, /2 older trace\(s\) not shown/);
  });

  test('ls: an empty or missing directory is not an error', async () => {
    const run = await agentlibTrace(['trace', 'ls', '--dir', 'nowhere'], project.dir);
    assert.equal(run.code, 0);
    assert.equal(run.out, '');
    assert.match(run.err, /no traces in nowhere/);
  });

  test('show: the static tree with glyphs, names, tokens and cost', async () => {
    const run = await agentlibTrace(['trace', 'show', 'run_aaa111'], project.dir);
    assert.equal(run.code, 0, run.err);
    const out = run.out;
    assert.match(out, /^trace run_aaa111 {2}agent alpha {2}model scripted\/gpt-4o-mini {2}status completed$/m);
    assert.match(out, /150ms · 8 steps · 3 LLM calls · 3 tool calls · 600 tokens \(550 in, 50 out\) · \$0\.00011 · 1 error/);
    assert.match(out, /^✓ llm_call gpt-4o-mini\s+20ms\s+120\s+\$0\.000027\s+█+$/m);
    assert.match(out, /^✓ └─ tool_selection slow_a, slow_b\s+0ms\s+▏$/m);
    assert.match(out, /^x {4}├─ tool_execution slow_b\s+10ms\s+█+$/m);
    assert.match(out, /ToolExecutionError: tool "slow_b" failed: slow_b failed/);
    assert.match(out, /^✓ {4}└─ tool_execution get_weather\s+30ms\s+█+$/m);
    assert.doesNotMatch(out, /\u001b\[/, 'no colour when stdout is not a terminal');
  });

  test('show: parallel tool calls start in the same waterfall column, scaled to the run', async () => {
    for (const columns of [80, 100, 160]) {
      const run = await agentlibTrace(['trace', 'show', 'run_aaa111'], project.dir, { columns });
      const lines = run.out.split('\n');
      for (const line of lines) assert.ok([...line].length <= columns, `fits ${columns} columns: ${line}`);
      const bar = (name: string): { start: number; end: number } => {
        const line = lines.find((l) => l.includes(`tool_execution ${name}`)) ?? '';
        const chars = [...line];
        const start = chars.indexOf('█');
        return { start, end: chars.lastIndexOf('█') + 1 };
      };
      const a = bar('slow_a');
      const b = bar('slow_b');
      const weather = bar('get_weather');
      assert.ok(a.start > 0 && a.start === b.start, `parallel calls line up at ${columns} columns: ${a.start} vs ${b.start}`);
      assert.ok(a.end - a.start > b.end - b.start, 'the 60 ms call has a longer bar than the 10 ms one');
      assert.ok(weather.start >= a.end, 'the later call starts after the parallel ones ended');
      const first = [...(lines.find((l) => l.startsWith('✓ llm_call')) ?? '')].indexOf('█');
      const header = lines.find((l) => /^\s+step\s+time\s+tokens\s+cost/.test(l)) ?? '';
      assert.equal(header.indexOf('0', header.indexOf('cost')), first, 'the scale starts where the first bar starts');
    }
  });

  test('show: CJK step names are cut and padded by terminal columns, so the columns and bars line up', async () => {
    await cjkTrace().toJSONL(join(project.dir, 'cjk.jsonl'));
    for (const columns of [80, 120]) {
      const run = await agentlibTrace(['trace', 'show', 'cjk.jsonl'], project.dir, { columns });
      assert.equal(run.code, 0, run.err);
      const lines = run.out.trimEnd().split('\n');
      for (const line of lines) assert.ok(displayWidth(line) <= columns, `fits ${columns} columns: ${line}`);
      const rows = lines.filter((line) => /^[✓x] /.test(line));
      assert.equal(rows.length, 4);
      // Every step runs to the end of the run: each bar ends in the last column.
      for (const row of rows) assert.equal(displayWidth(row), columns, `row is ${columns} columns: ${row}`);
      assert.match(rows[2] ?? '', /tool_execution 東京の天気予報.*…/, 'a long name is cut with an ellipsis');
      const timeColumn = (row: string): number => displayWidth(row.slice(0, row.search(/\d+(\.\d+)?(ms|s) /)));
      assert.equal(new Set(rows.map(timeColumn)).size, 1, `the time column lines up:\n${rows.join('\n')}`);
    }
  });

  test('ls and diff strip escape sequences from trace file text (agent and tool names, arguments)', async () => {
    const hostile = new AgentTrace({
      runId: 'run_hostile',
      agentName: 'evil\u001b]0;pwned\u0007\u001b[2J',
      startedAt: T0,
      endedAt: T0 + 10,
      status: 'completed',
      steps: [{ id: 's1', runId: 'run_hostile', type: 'tool_execution', name: 'rm\u001b[31m', startedAt: T0, timestamp: new Date(T0).toISOString(), durationMs: 5, status: 'ok', input: '{"x":"\u001b]52;c;Y2xpcA==\u0007"}' }],
    });
    const dir = join(project.dir, 'hostile');
    await hostile.toJSONL(join(dir, 'run_hostile.jsonl'));
    const ls = await agentlibTrace(['trace', 'ls', '--dir', 'hostile'], project.dir);
    assert.equal(ls.code, 0, ls.err);
    assert.match(ls.out, /run_hostile\s+evil\s+completed/);
    const diff = await agentlibTrace(['trace', 'diff', join('hostile', 'run_hostile.jsonl'), 'aaa'], project.dir);
    assert.equal(diff.code, 0, diff.err);
    assert.match(diff.out, /rm \{"x":""\}/);
    for (const out of [ls.out, diff.out]) assert.doesNotMatch(out, /[\u001b\u0007]/);
  });

  test('show --ascii draws with ASCII only; show --json prints the trace document', async () => {
    const ascii = await agentlibTrace(['trace', 'show', 'run_aaa111', '--ascii'], project.dir);
    assert.match(ascii.out, /^! {4}\|- tool_execution slow_b\s+10ms\s+#+$/m);
    assert.match(ascii.out, /^\+ {4}`- tool_execution slow_a/m);
    const json = await agentlibTrace(['trace', 'show', 'run_aaa111', '--json'], project.dir);
    const doc = JSON.parse(json.out) as { version: number; file: string; totals: { totalTokens: number }; trace: unknown };
    assert.equal(doc.version, 1);
    assert.equal(doc.totals.totalTokens, 600);
    assert.equal(AgentTrace.fromJSON(doc.trace).steps.length, 8);
  });

  test('--ascii prints nothing but ASCII: status glyphs, separators and cut marks too (show, view --tree, diff)', async () => {
    const nonAscii = /[^\x00-\x7f]/u;
    for (const columns of [100, 60, 40]) {
      for (const argv of [
        ['trace', 'show', 'run_aaa111', '--ascii'],
        ['trace', 'view', 'run_aaa111', '--tree', '--ascii'],
        ['trace', 'diff', 'run_aaa111', 'run_aab222', '--ascii'],
      ]) {
        const run = await agentlibTrace(argv, project.dir, { columns });
        assert.equal(run.code, 0, run.err);
        const found = nonAscii.exec(run.out);
        assert.equal(found, null, `${argv.join(' ')} at ${columns} columns printed ${JSON.stringify(found?.[0])}:\n${run.out}`);
      }
    }
    const narrow = await agentlibTrace(['trace', 'show', 'run_aaa111', '--ascii'], project.dir, { columns: 40 });
    assert.match(narrow.out, /\.\.\./, 'a cut is marked with three dots');
    const unicode = await agentlibTrace(['trace', 'show', 'run_aaa111'], project.dir);
    assert.match(unicode.out, /^✓ /m, 'without --ascii the glyphs stay');
  });

  test('view without a trace opens the latest one (by modification time); none is a usage error', async () => {
    const { utimesSync } = await import('node:fs');
    const newest = new Date(Date.now() + 60_000);
    utimesSync(join(project.traces, 'run_ccc333.jsonl'), newest, newest);
    const latest = await agentlibTrace(['trace', 'view', '--tree'], project.dir);
    assert.equal(latest.code, 0, latest.err);
    assert.match(latest.out, /^trace run_ccc333 /);
    const json = await agentlibTrace(['trace', 'view', '--json'], project.dir);
    assert.equal((JSON.parse(json.out) as { trace: { runId: string } }).trace.runId, 'run_ccc333');
    const empty = await agentlibTrace(['trace', 'view', '--tree', '--dir', 'nowhere'], project.dir);
    assert.equal(empty.code, 2);
    assert.match(empty.err, /no traces in nowhere/);
    const two = await agentlibTrace(['trace', 'view', 'a', 'b'], project.dir);
    assert.equal(two.code, 2);
    assert.match(two.err, /trace view takes at most one trace/);
  });

  test('an id prefix resolves when unique; an ambiguous one lists the candidates', async () => {
    const unique = await agentlibTrace(['trace', 'show', 'ccc'], project.dir);
    assert.equal(unique.code, 0, unique.err);
    assert.match(unique.out, /^trace run_ccc333 /);
    const full = await agentlibTrace(['trace', 'show', 'run_aab'], project.dir);
    assert.match(full.out, /^trace run_aab222 /);
    const ambiguous = await agentlibTrace(['trace', 'show', 'run_aa'], project.dir);
    assert.equal(ambiguous.code, 2);
    assert.match(ambiguous.err, /trace id "run_aa" is ambiguous: it matches 2 traces: run_aaa111, run_aab222/);
    const byPath = await agentlibTrace(['trace', 'show', join(project.traces, 'run_ccc333.jsonl')], '/');
    assert.equal(byPath.code, 0, byPath.err);
    assert.match(byPath.out, /^trace run_ccc333 /);
  });

  test('an unknown id or missing file exits 2 with a did-you-mean', async () => {
    const typo = await agentlibTrace(['trace', 'show', 'run_ccc334'], project.dir);
    assert.equal(typo.code, 2);
    assert.match(typo.err, /no trace "run_ccc334".*Did you mean "run_ccc333"\?/);
    const file = await agentlibTrace(['trace', 'show', 'old/run_aab221.jsonl'], project.dir);
    assert.equal(file.code, 2);
    assert.match(file.err, /trace file not found: old\/run_aab221\.jsonl\. Did you mean "run_aab222"\?/);
  });

  test('a malformed trace exits 2 naming the file and line', async () => {
    const lines = readFileSync(join(project.traces, 'run_ccc333.jsonl'), 'utf8').split('\n');
    lines[1] = lines[1]!.replace('"durationMs":20', '"durationMs":"soon"');
    writeRaw(join(project.dir, 'bad.jsonl'), lines.join('\n'));
    const run = await agentlibTrace(['trace', 'show', 'bad.jsonl'], project.dir);
    assert.equal(run.code, 2);
    assert.match(run.err, /agentlib: invalid trace bad\.jsonl:2: field "durationMs" must be a finite number/);
    writeRaw(join(project.dir, 'broken.jsonl'), `${lines[0]}\n{not json\n`);
    const broken = await agentlibTrace(['trace', 'view', 'broken.jsonl', '--tree'], project.dir);
    assert.equal(broken.code, 2);
    assert.match(broken.err, /invalid trace broken\.jsonl:2: invalid JSON/);
  });

  test('a trace whose last line was cut off is read up to its last whole line and marked incomplete by every action', async () => {
    const whole = readFileSync(join(project.traces, 'run_aaa111.jsonl'), 'utf8');
    mkdirSync(join(project.dir, 'partial'), { recursive: true });
    writeRaw(join(project.dir, 'partial', 'run_cut.jsonl'), whole.slice(0, whole.length - 40));
    const file = join('partial', 'run_cut.jsonl');
    const steps = whole.trimEnd().split('\n').length - 2;

    const show = await agentlibTrace(['trace', 'show', file], project.dir);
    assert.equal(show.code, 0, show.err);
    assert.match(show.out, /^trace run_aaa111 .*status completed incomplete$/m, 'the header line said "completed": the cut removed only a step');
    assert.match(show.out, /^incomplete: the run did not finish this trace/m);
    assert.match(show.out, new RegExp(`${steps} steps`));
    const tree = await agentlibTrace(['trace', 'view', file, '--tree'], project.dir);
    assert.equal(tree.code, 0, tree.err);
    assert.match(tree.out, /^incomplete: /m);
    for (const action of ['show', 'view']) {
      const json = await agentlibTrace(['trace', action, file, '--json'], project.dir);
      assert.equal(json.code, 0, json.err);
      const doc = JSON.parse(json.out) as { trace: { incomplete?: boolean; steps: unknown[] } };
      assert.equal(doc.trace.incomplete, true, action);
      assert.equal(doc.trace.steps.length, steps, action);
    }

    const ls = await agentlibTrace(['trace', 'ls', '--dir', 'partial'], project.dir);
    assert.equal(ls.code, 0, ls.err);
    assert.match(ls.out, /^run_cut\s+alpha\s+incomplete\s/m);
    assert.equal(ls.err, '', 'not reported as invalid');
    const lsJson = JSON.parse((await agentlibTrace(['trace', 'ls', '--dir', 'partial', '--json'], project.dir)).out) as { traces: Array<{ incomplete?: boolean; invalid?: string; steps: number }> };
    assert.equal(lsJson.traces[0]?.incomplete, true);
    assert.equal(lsJson.traces[0]?.invalid, undefined);
    assert.equal(lsJson.traces[0]?.steps, steps);

    const diff = await agentlibTrace(['trace', 'diff', file, 'run_aaa111'], project.dir);
    assert.equal(diff.code, 0, diff.err);
    assert.match(diff.out, /^status\s+completed incomplete\s+completed\s+≠$/m);
    const diffJson = JSON.parse((await agentlibTrace(['trace', 'diff', file, 'run_aaa111', '--json'], project.dir)).out) as { a: { incomplete?: boolean }; b: { incomplete?: boolean }; sameShape: boolean };
    assert.equal(diffJson.a.incomplete, true);
    assert.equal(diffJson.b.incomplete, undefined);
    assert.equal(diffJson.sameShape, false);

    const exported = await agentlibTrace(['trace', 'export', file], project.dir);
    assert.equal(exported.code, 0, exported.err);
    assert.equal((JSON.parse(exported.out) as OtlpTraceRequest).resourceSpans[0]?.scopeSpans[0]?.spans.length, steps + 1);
    assert.match(exported.err, new RegExp(`note: partial/run_cut\\.jsonl is incomplete .*exporting the ${steps} step`));
  });

  test('export: OTLP/JSON with hex ids, parent links and gen_ai attributes', async () => {
    // The trace has the llm_call message views (recorded since): the export still validates.
    assert.match(readFileSync(join(project.traces, 'run_aaa111.jsonl'), 'utf8'), /"type":"llm_call".*"messages":\[\{"role":"user"/);
    const run = await agentlibTrace(['trace', 'export', 'aaa', '--otlp', 'out/spans.json'], project.dir);
    assert.equal(run.code, 0, run.err);
    assert.match(run.err, /wrote 9 span\(s\) of \.agentlib\/traces\/run_aaa111\.jsonl to out\/spans\.json/);
    const body = JSON.parse(readFileSync(join(project.dir, 'out', 'spans.json'), 'utf8')) as OtlpTraceRequest;
    const resource = body.resourceSpans[0];
    assert.deepEqual(resource?.resource.attributes, [{ key: 'service.name', value: { stringValue: 'agentlib' } }]);
    const scope = resource?.scopeSpans[0];
    assert.equal(scope?.scope.name, 'agentlib');
    const spans = scope?.spans ?? [];
    assert.equal(spans.length, 9);
    const ids = new Set(spans.map((span) => span.spanId));
    for (const span of spans) {
      assert.match(span.traceId, /^[0-9a-f]{32}$/);
      assert.match(span.spanId, /^[0-9a-f]{16}$/);
      assert.match(span.startTimeUnixNano, /^\d+$/);
      assert.ok(BigInt(span.endTimeUnixNano) >= BigInt(span.startTimeUnixNano));
      if (span.parentSpanId !== undefined) assert.ok(ids.has(span.parentSpanId), `${span.name} links to a span in the export`);
    }
    assert.equal(new Set(spans.map((span) => span.traceId)).size, 1);
    const root = spans.find((span) => span.name === 'invoke_agent alpha');
    assert.ok(root !== undefined && root.parentSpanId === undefined);
    const attr = (name: string, key: string): unknown => spans.find((span) => span.name === name)?.attributes.find((a) => a.key === key)?.value;
    assert.deepEqual(attr('chat gpt-4o-mini', 'gen_ai.operation.name'), { stringValue: 'chat' });
    assert.deepEqual(attr('chat gpt-4o-mini', 'gen_ai.usage.input_tokens'), { intValue: '100' });
    assert.deepEqual(attr('execute_tool slow_a', 'gen_ai.tool.name'), { stringValue: 'slow_a' });
    const slowB = spans.find((span) => span.name === 'execute_tool slow_b');
    assert.equal(slowB?.status.code, 2);
    const selection = spans.find((span) => span.name === 'tool_selection slow_a, slow_b');
    assert.equal(slowB?.parentSpanId, selection?.spanId, 'a tool span hangs under its selection');
    assert.equal(selection?.parentSpanId, spans.find((span) => span.name === 'chat gpt-4o-mini' && span.startTimeUnixNano === `${T0}000000`)?.spanId);

    const stdout = await agentlibTrace(['trace', 'export', 'aaa', '--service-name', 'billing'], project.dir);
    const printed = JSON.parse(stdout.out) as OtlpTraceRequest;
    assert.deepEqual(printed.resourceSpans[0]?.resource.attributes[0], { key: 'service.name', value: { stringValue: 'billing' } });
  });

  test('diff: side by side text, with tool calls aligned and marked', async () => {
    const run = await agentlibTrace(['trace', 'diff', 'aaa', 'aab'], project.dir);
    assert.equal(run.code, 0, run.err);
    const out = run.out;
    assert.match(out, /^agent\s+alpha\s+beta\s+≠$/m);
    assert.match(out, /^ {2}tool_execution\s+3\s+2\s+-1$/m);
    assert.match(out, /^tokens\s+600\s+600$/m);
    assert.match(out, /^errors\s+1\s+0\s+-1$/m);
    const calls = out.slice(out.indexOf('tool calls'));
    // a: slow_b, slow_a (parallel; slow_b was recorded first), get_weather; b: get_weather, slow_a.
    // Both one-call alignments are longest common subsequences; the linear-space diff anchors slow_a.
    assert.match(calls, /^≠ {2}1 {2}slow_b \{\} \(error\)\s+get_weather \{"city":"Bergen"\}$/m);
    assert.match(calls, /^= {2}2 {2}slow_a \{\}\s+slow_a \{\}$/m);
    assert.match(calls, /^- {2}3 {2}get_weather \{"city":"Oslo"\}$/m);
    assert.match(out, /the runs differ/);
  });

  test('diff: the metrics table fits the terminal width with long paths (the file names stay visible)', async () => {
    const deep = join('runs', 'nightly-regression-suite-for-the-weather-agent', 'baseline-before-the-model-upgrade');
    mkdirSync(join(project.dir, deep), { recursive: true });
    writeRaw(join(project.dir, deep, 'run_aaa111.jsonl'), readFileSync(join(project.traces, 'run_aaa111.jsonl'), 'utf8'));
    for (const columns of [100, 80]) {
      const run = await agentlibTrace(['trace', 'diff', join(deep, 'run_aaa111.jsonl'), 'aab'], project.dir, { columns });
      assert.equal(run.code, 0, run.err);
      const metrics = run.out.slice(0, run.out.indexOf('tool calls'));
      for (const line of metrics.split('\n')) assert.ok(displayWidth(line) <= columns, `fits ${columns} columns (${displayWidth(line)}): ${line}`);
      assert.match(metrics, /^file\s+…\S*run_aaa111\.jsonl\s+\S*run_aab222\.jsonl$/m, 'a cut path keeps its end');
      assert.match(metrics, /^tokens\s+600\s+600$/m);
    }
    const wide = await agentlibTrace(['trace', 'diff', join(deep, 'run_aaa111.jsonl'), 'aab'], project.dir, { columns: 200 });
    assert.ok(wide.out.includes(join(deep, 'run_aaa111.jsonl')), 'uncut where it fits');
  });

  test('diff: the tool calls legend is cut to the terminal width (whole where it fits)', async () => {
    const legendOf = (out: string): string => out.split('\n').find((line) => line.startsWith('tool calls')) ?? '';
    for (const columns of [60, 40]) {
      const run = await agentlibTrace(['trace', 'diff', 'aaa', 'aab'], project.dir, { columns });
      assert.equal(run.code, 0, run.err);
      const legend = legendOf(run.out);
      assert.ok(displayWidth(legend) <= columns, `fits ${columns} columns (${displayWidth(legend)}): ${legend}`);
      assert.match(legend, /^tool calls \(= same, .*…$/);
    }
    const wide = await agentlibTrace(['trace', 'diff', 'aaa', 'aab'], project.dir, { columns: 120 });
    assert.equal(legendOf(wide.out), 'tool calls (= same, ~ other arguments or status, ≠ other tool, - only in a, + only in b)');
  });

  test('diff --json: a structured document; the same trace twice has the same shape', async () => {
    const run = await agentlibTrace(['trace', 'diff', 'aaa', 'aab', '--json'], project.dir);
    const doc = JSON.parse(run.out) as { version: number; files: { a: string }; metrics: { totalTokens: { a: number; b: number; delta: number }; toolCalls: { delta: number } }; toolCalls: Array<{ kind: string }>; sameShape: boolean };
    assert.equal(doc.version, 1);
    assert.equal(doc.files.a, join('.agentlib', 'traces', 'run_aaa111.jsonl'));
    assert.deepEqual(doc.metrics.totalTokens, { a: 600, b: 600, delta: 0 });
    assert.equal(doc.metrics.toolCalls.delta, -1);
    assert.deepEqual(doc.toolCalls.map((row) => row.kind), ['replaced', 'same', 'removed']);
    assert.equal(doc.sameShape, false);
    const same = await agentlibTrace(['trace', 'diff', 'aaa', join('.agentlib', 'traces', 'run_aaa111.jsonl'), '--json'], project.dir);
    assert.equal((JSON.parse(same.out) as { sameShape: boolean }).sameShape, true);
  });

  test('view: --tree and --json print static output; a pipe gets the tree without the viewer', async () => {
    const tree = await agentlibTrace(['trace', 'view', 'aaa', '--tree'], project.dir, { isTTY: true, stdinTTY: true, env: { NO_COLOR: '1' } });
    assert.equal(tree.code, 0, tree.err);
    assert.equal(tree.err, '', 'asked for: no note');
    assert.match(tree.out, /^trace run_aaa111 /);
    assert.match(tree.out, /tool_execution slow_a/);
    const coloured = await agentlibTrace(['trace', 'view', 'aaa', '--tree'], project.dir, { isTTY: true, stdinTTY: true });
    assert.match(coloured.out, /\u001b\[31mx\u001b\[39m/, 'a failed step is red on a colour terminal');
    const json = await agentlibTrace(['trace', 'view', 'aaa', '--json'], project.dir, { isTTY: true, stdinTTY: true });
    assert.equal((JSON.parse(json.out) as { trace: { runId: string } }).trace.runId, 'run_aaa111');
    const piped = await agentlibTrace(['trace', 'view', 'aaa'], project.dir);
    assert.equal(piped.code, 0, piped.err);
    assert.match(piped.out, /^trace run_aaa111 /);
    assert.match(piped.err, /^note: trace view is not interactive here \(stdin is not a terminal\); printing the static tree\. Use --tree or --json/);
  });

  test('view under CI (or without a terminal) says so, prints the static tree and never loads the viewer', async () => {
    const ci = await agentlibTrace(['trace', 'view', 'aaa'], project.dir, { isTTY: true, stdinTTY: true, env: { CI: 'true', NO_COLOR: '1' } });
    assert.equal(ci.code, 0, ci.err);
    assert.match(ci.out, /^trace run_aaa111 /);
    assert.match(ci.err, /not interactive here \(CI is set\).*--tree or --json/);

    const trace = AgentTrace.fromJSONL(readFileSync(join(project.traces, 'run_aaa111.jsonl'), 'utf8'));
    const loaded = { path: 'x', shown: 'x.jsonl', trace };
    const args = { color: true, debug: false, _: [] } as unknown as CommandArguments;
    const neverLoad = async (): Promise<undefined> => assert.fail('the viewer must not be loaded');
    const cases: Array<[Record<string, string>, boolean, boolean, RegExp]> = [
      [{ CI: '1' }, true, true, /CI is set/],
      [{}, false, true, /stdout is not a terminal/],
      [{}, true, false, /stdin is not a terminal/],
    ];
    for (const [env, stdoutTTY, stdinTTY, reason] of cases) {
      const io = memoryIO(env, { isTTY: stdoutTTY });
      io.stdin = Object.assign(new (await import('node:stream')).PassThrough(), { isTTY: stdinTTY });
      const context: CommandContext = { io, signal: new AbortController().signal, version: '0.0.0', color: false };
      assert.equal(await viewTrace(loaded, args, context, neverLoad), 0);
      assert.match(io.out(), /^trace run_aaa111 /);
      assert.match(io.err(), reason);
    }
    // CI=false / 0 / empty is not CI.
    const io = memoryIO({ CI: 'false' }, { isTTY: true });
    io.stdin = Object.assign(new (await import('node:stream')).PassThrough(), { isTTY: true });
    const context: CommandContext = { io, signal: new AbortController().signal, version: '0.0.0', color: false };
    assert.equal(await viewTrace(loaded, args, context, async () => ({ runTraceViewer: async () => 5 })), 5);
  });

  test('view on a terminal runs the viewer, or falls back to the tree with a note when it is missing', async () => {
    const trace = AgentTrace.fromJSONL(readFileSync(join(project.traces, 'run_aaa111.jsonl'), 'utf8'));
    const loaded = { path: 'x', shown: 'x.jsonl', trace };
    const io = memoryIO({}, { isTTY: true });
    io.stdin = Object.assign(process.stdin, {});
    const ttyStdin = Object.create(io.stdin, { isTTY: { value: true } }) as NodeJS.ReadStream;
    io.stdin = ttyStdin;
    const context: CommandContext = { io, signal: new AbortController().signal, version: '0.0.0', color: false };
    const args = { color: true, debug: false, _: [] } as unknown as CommandArguments;
    const calls: unknown[] = [];
    const code = await viewTrace(loaded, args, context, async () => ({
      runTraceViewer: async (viewed, options) => {
        calls.push([viewed.runId, options.color, options.stdin === ttyStdin]);
        return 7;
      },
    }));
    assert.equal(code, 7);
    assert.deepEqual(calls, [['run_aaa111', false, true]]);
    assert.equal(io.out(), '');

    const fallback = await viewTrace(loaded, args, context, async () => undefined);
    assert.equal(fallback, 0);
    assert.match(io.out(), /^trace run_aaa111 /);
    assert.match(io.err(), /interactive trace viewer is not available/);
  });

  test('usage errors: an unknown action suggests one; wrong trace counts exit 2', async () => {
    const typo = await agentlibTrace(['trace', 'shwo', 'aaa'], project.dir);
    assert.equal(typo.code, 2);
    assert.match(typo.err, /unknown trace action "shwo".*Did you mean "show"\?/);
    const missing = await agentlibTrace(['trace', 'diff', 'aaa'], project.dir);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /trace diff takes 2 traces, got 1/);
    assert.ok(!existsSync(join(project.dir, 'spans.json')));
  });

  test('--help lists the actions, options and examples', async () => {
    const run = await agentlibTrace(['trace', '--help'], project.dir);
    assert.equal(run.code, 0);
    assert.match(run.out, /agentlib trace <action> \[traces\.\.\]/);
    for (const text of ['--otlp', '--tree', '--limit', 'Examples:', 'agentlib trace diff run_3f2a run_9c1d']) assert.ok(run.out.includes(text), text);
  });
});
