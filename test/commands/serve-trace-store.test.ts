// `agentlib serve` keeps each request's run trace in a trace store (issue 18): SQLite
// .agentlib/agentlib.db by default, `--trace-store <url>` elsewhere, `--no-trace-store` none; the
// traces are read back with `agentlib trace ls --store <url>`.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { readSse } from '../lib/serve/helpers.js';
import type { TraceSummary } from '../../lib/trace/stores/types.js';
import { agentlib, ANSWER, cliEnv, cliSuite, QUESTION } from './run-helpers.js';
import { invoke, startServe, stream } from './serve-helpers.js';

interface Listing {
  total: number;
  traces: TraceSummary[];
}

describe('agentlib serve --trace-store (built binary, replayed provider)', () => {
  const suite = cliSuite();
  const cassette = (): string => join(suite.project.dir, 'calculator', 'cassette.jsonl');

  /** `agentlib trace ls --store <url> --json`, parsed. */
  async function listed(url: string): Promise<Listing> {
    const ls = await agentlib(['trace', 'ls', '--store', url, '--json'], { cwd: suite.project.dir, env: cliEnv(undefined) });
    assert.equal(ls.exitCode, 0, ls.stderr);
    return JSON.parse(ls.stdout) as Listing;
  }

  /** Serves the calculator with `flags`, runs `requests` /invoke calls, stops the server; returns the run ids answered. */
  async function serveAndInvoke(flags: readonly string[], requests: number): Promise<{ runIds: string[]; banner: string }> {
    const serve = await startServe([suite.project.agent, '--replay', cassette(), ...flags], { cwd: suite.project.dir, env: cliEnv(undefined) });
    const runIds: string[] = [];
    try {
      for (let i = 0; i < requests; i++) {
        const res = await invoke(serve.url, QUESTION);
        assert.equal(res.status, 200, `${await res.clone().text()}\n${serve.stderr()}`);
        const body = (await res.json()) as { content: string; run_id: string };
        assert.equal(body.content, ANSWER);
        runIds.push(body.run_id);
      }
    } finally {
      serve.child.kill('SIGTERM');
    }
    assert.equal((await serve.child).exitCode, 0, serve.stderr());
    return { runIds, banner: serve.stdout() };
  }

  test('by default every request\'s trace goes to SQLite .agentlib/agentlib.db when its run ends; trace ls --store sqlite:// lists them', async () => {
    const serve = await startServe([suite.project.agent, '--replay', cassette()], { cwd: suite.project.dir, env: cliEnv(undefined) });
    const runIds: string[] = [];
    try {
      assert.match(serve.stdout(), /Traces: each run's is saved to sqlite:\/\/ \(agentlib trace ls --store sqlite:\/\/\)/);
      for (let i = 0; i < 2; i++) runIds.push(((await (await invoke(serve.url, QUESTION)).json()) as { run_id: string }).run_id);
      const events = await readSse(await stream(serve.url, QUESTION));
      assert.equal(events.at(-1)?.event, 'run-end');
      // Saved before the response went out: readable from another process while the server runs.
      const during = await listed('sqlite://');
      assert.equal(during.total, 3);
    } finally {
      serve.child.kill('SIGTERM');
    }
    assert.equal((await serve.child).exitCode, 0, serve.stderr());
    const { traces } = await listed(`sqlite://${join('.agentlib', 'agentlib.db')}`);
    assert.equal(traces.length, 3);
    for (const id of runIds) assert.ok(traces.some((row) => row.runId === id), `run ${id} listed`);
    for (const row of traces) {
      assert.equal(row.agentName, 'calculator');
      assert.equal(row.status, 'completed');
      assert.ok(row.toolCalls >= 1, 'the multiply call is in the trace');
    }
    const show = await agentlib(['trace', 'show', runIds[0] ?? '', '--store', 'sqlite://'], { cwd: suite.project.dir, env: cliEnv(undefined) });
    assert.equal(show.exitCode, 0, show.stderr);
    assert.match(show.stdout, /multiply/);
  });

  test('--trace-store file://dir keeps one .jsonl per run there; --no-trace-store keeps none', async () => {
    const { runIds } = await serveAndInvoke(['--trace-store', 'file://served-traces'], 2);
    const files = await listed('file://served-traces');
    assert.deepEqual(files.traces.map((row) => row.runId).sort(), [...runIds].sort());

    const before = (await listed('sqlite://')).total;
    const none = await serveAndInvoke(['--no-trace-store'], 1);
    assert.match(none.banner, /Traces: not kept \(--no-trace-store\)/);
    assert.equal((await listed('sqlite://')).total, before, 'nothing added to the default store');
    assert.equal((await listed('file://served-traces')).total, 2, 'nor to the other');
  });

  test('a store URL it cannot use is a usage error (exit 2) before the server starts', async () => {
    for (const [url, message] of [
      ['memory://', /--trace-store memory:\/\/ would keep the traces only until this process ends/],
      ['redis://127.0.0.1:9', /--trace-store: .*trace store/],
    ] as const) {
      const run = await agentlib(['serve', suite.project.agent, '--replay', cassette(), '--port', '0', '--trace-store', url], { cwd: suite.project.dir, env: cliEnv(undefined) });
      assert.equal(run.exitCode, 2, `${url}: ${run.stderr}`);
      assert.match(run.stderr, message);
    }
    // The same check for a served graph.
    writeFileSync(join(suite.project.dir, 'flow.graph.yaml'), 'kind: graph\nname: flow\nentry: a\nnodes:\n  a: { function: ./flow-nodes.mjs#a }\n');
    writeFileSync(join(suite.project.dir, 'flow-nodes.mjs'), "export function a(state) { return 'a saw ' + state.messages.at(-1).content; }\n");
    const graph = await agentlib(['serve', 'flow.graph.yaml', '--port', '0', '--trace-store', 'memory://'], { cwd: suite.project.dir, env: cliEnv(undefined) });
    assert.equal(graph.exitCode, 2, graph.stderr);
    assert.match(graph.stderr, /--trace-store memory:\/\/ would keep the traces only/);
  });

  test('a served graph keeps each request\'s graph run trace too (--trace-store file://dir; default sqlite://)', async () => {
    writeFileSync(join(suite.project.dir, 'flow.graph.yaml'), 'kind: graph\nname: flow\nentry: a\nnodes:\n  a: { function: ./flow-nodes.mjs#a }\n');
    writeFileSync(join(suite.project.dir, 'flow-nodes.mjs'), "export function a(state) { return 'a saw ' + state.messages.at(-1).content; }\n");
    const serve = await startServe(['flow.graph.yaml', '--trace-store', 'file://graph-traces'], { cwd: suite.project.dir, env: cliEnv(undefined) });
    let runId = '';
    try {
      assert.match(serve.stdout(), /Traces: each run's is saved to file:\/\/graph-traces/);
      const res = await invoke(serve.url, 'tides');
      const body = (await res.json()) as { content: string; run_id: string };
      assert.equal(body.content, 'a saw tides');
      runId = body.run_id;
    } finally {
      serve.child.kill('SIGTERM');
    }
    assert.equal((await serve.child).exitCode, 0, serve.stderr());
    const { traces } = await listed('file://graph-traces');
    assert.deepEqual(traces.map((row) => [row.runId, row.agentName, row.status]), [[runId, 'flow', 'completed']]);
    const view = await agentlib(['trace', 'show', runId, '--store', 'file://graph-traces'], { cwd: suite.project.dir, env: cliEnv(undefined) });
    assert.equal(view.exitCode, 0, view.stderr);
    assert.match(view.stdout, /graph_node_start|node a|\ba\b/);
  });
});
