import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { parseFastView, traceViewFastPath } from '../../cli/trace-view-fast-path.js';
import type { TraceViewerModule, ViewerLoader } from '../../commands/trace/load-viewer.js';
import type { AgentTrace } from '../../lib/trace/agent-trace.js';
import { memoryIO } from '../support/cli-io.js';
import { sampleTrace } from '../tui/trace-viewer/traces.js';

describe('parseFastView', () => {
  test('takes one trace with --dir and --color / --no-color', () => {
    assert.deepEqual(parseFastView(['run_1']), { ref: 'run_1', color: true });
    assert.deepEqual(parseFastView(['run_1', '--dir', 'traces']), { ref: 'run_1', dir: 'traces', color: true });
    assert.deepEqual(parseFastView(['--dir=traces', 'run_1', '--no-color']), { ref: 'run_1', dir: 'traces', color: false });
    assert.deepEqual(parseFastView(['run_1', '--color=false', '--color']), { ref: 'run_1', color: true });
  });

  test('no trace argument means the latest trace', () => {
    assert.deepEqual(parseFastView([]), { color: true });
    assert.deepEqual(parseFastView(['--dir', 'traces', '--no-color']), { dir: 'traces', color: false });
  });

  test('leaves everything else to the CLI', () => {
    for (const words of [[''], ['a', 'b'], ['a', '--tree'], ['a', '--json'], ['a', '--help'], ['-h'], ['a', '--debug'], ['a', '--ascii'], ['a', '--'], ['a', '--dir'], ['a', '--dir', '--tree'], ['a', '--dir', 'x', '--dir', 'y'], ['a', '--bogus']]) {
      assert.equal(parseFastView(words), undefined, words.join(' '));
    }
  });
});

describe('traceViewFastPath', () => {
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agentlib-fast-view-'));
    await sampleTrace().writeJSONL(join(dir, 'run_1.jsonl'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A terminal (or not) on both ends, in `dir`. */
  const terminal = (env: Record<string, string> = {}, tty = true): ReturnType<typeof memoryIO> => {
    const io = memoryIO(env, { isTTY: tty });
    io.stdin = Object.assign(new PassThrough(), { isTTY: tty });
    io.cwd = dir;
    return io;
  };
  const viewer = (calls: unknown[], result: () => Promise<number>): ViewerLoader => async () =>
    ({
      runTraceViewer: async (trace: AgentTrace, options) => {
        calls.push({ runId: trace.runId, color: options.color });
        return result();
      },
    }) satisfies TraceViewerModule;

  test('opens the viewer on a terminal, by id with --dir, and resolves with its exit code', async () => {
    const calls: unknown[] = [];
    const io = terminal({ FORCE_COLOR: '1' });
    assert.equal(await traceViewFastPath(['trace', 'view', 'run_1', '--dir', '.'], io, viewer(calls, async () => 0)), 0);
    assert.equal(await traceViewFastPath(['trace', 'view', join(dir, 'run_1.jsonl'), '--no-color'], io, viewer(calls, async () => 4)), 4);
    assert.deepEqual(calls, [{ runId: 'run_1', color: true }, { runId: 'run_1', color: false }]);
    assert.equal(io.out() + io.err(), '', 'the fake viewer drew nothing, and nothing else was written');
  });

  test('without a trace argument opens the latest trace of the directory', async () => {
    const calls: unknown[] = [];
    const io = terminal();
    assert.equal(await traceViewFastPath(['trace', 'view', '--dir', '.'], io, viewer(calls, async () => 0)), 0);
    assert.deepEqual(calls, [{ runId: 'run_1', color: true }]);
    // an empty directory is left to the CLI to report
    assert.equal(await traceViewFastPath(['trace', 'view', '--dir', 'none'], io, viewer(calls, async () => 0)), undefined);
    assert.equal(io.out() + io.err(), '');
  });

  test('hands back to the CLI (undefined, nothing written) without a terminal, under CI, or for other arguments', async () => {
    const calls: unknown[] = [];
    const load = viewer(calls, async () => 0);
    const cases: Array<[string[], ReturnType<typeof memoryIO>]> = [
      [['trace', 'view', 'run_1.jsonl'], terminal({}, false)],
      [['trace', 'view', 'run_1.jsonl'], terminal({ CI: 'true' })],
      [['trace', 'view', 'run_1.jsonl', '--tree'], terminal()],
      [['trace', 'show', 'run_1.jsonl'], terminal()],
      [['view', 'run_1.jsonl'], terminal()],
    ];
    for (const [argv, io] of cases) {
      assert.equal(await traceViewFastPath(argv, io, load), undefined, argv.join(' '));
      assert.equal(io.out() + io.err(), '');
    }
    assert.deepEqual(calls, [], 'the viewer was never started');
  });

  test('a trace that cannot be found or a viewer that cannot be loaded is left to the CLI to report', async () => {
    const calls: unknown[] = [];
    const io = terminal();
    assert.equal(await traceViewFastPath(['trace', 'view', 'nope.jsonl'], io, viewer(calls, async () => 0)), undefined);
    assert.equal(await traceViewFastPath(['trace', 'view', 'run_1.jsonl'], io, async () => undefined), undefined);
    assert.equal(await traceViewFastPath(['trace', 'view', 'run_1.jsonl'], io, async () => Promise.reject(new Error('bundle broken'))), undefined);
    assert.deepEqual(calls, []);
    assert.equal(io.out() + io.err(), '');
  });

  test('starts loading the viewer before the trace is read, and waits for both', async () => {
    let loading = false;
    let resolveViewer!: (module: TraceViewerModule) => void;
    const running = traceViewFastPath(['trace', 'view', 'run_1.jsonl'], terminal(), () => {
      loading = true;
      return new Promise((resolve) => (resolveViewer = resolve));
    });
    assert.equal(loading, true, 'the viewer was asked for before the trace file was even opened');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const calls: unknown[] = [];
    resolveViewer({ runTraceViewer: async (trace, options) => (calls.push({ runId: trace.runId, color: options.color }), 0) });
    assert.equal(await running, 0);
    assert.deepEqual(calls, [{ runId: 'run_1', color: true }]);
  });

  test('a viewer that fails to load while the trace is missing, or that throws at once, is no error', async () => {
    const io = terminal();
    assert.equal(await traceViewFastPath(['trace', 'view', 'nope.jsonl'], io, async () => Promise.reject(new Error('bundle broken'))), undefined);
    const throwing: ViewerLoader = () => {
      throw new Error('loader broken');
    };
    assert.equal(await traceViewFastPath(['trace', 'view', 'run_1.jsonl'], io, throwing), undefined);
    assert.equal(io.out() + io.err(), '');
  });

  test('a viewer that fails once started is reported like the CLI reports errors (exit 3)', async () => {
    const io = terminal();
    const code = await traceViewFastPath(['trace', 'view', 'run_1.jsonl'], io, viewer([], async () => Promise.reject(new Error('raw mode unavailable'))));
    assert.equal(code, 3);
    assert.match(io.err(), /^agentlib: raw mode unavailable\n/);
  });
});
