import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { EXIT_INTERRUPTED_FOR_INPUT, run } from '../../commands/graph.js';
import { memoryIO } from '../support/cli-io.js';
import { startEchoOpenAIServer, type EchoOpenAIServer } from '../support/echo-openai-server.js';

// `agentlib graph run|resume --record/--replay`: a graph of two agent nodes (each its own agent
// file) and a function node, recorded against a loopback OpenAI-compatible server, then replayed
// with the server gone (no network): the same answers, the same history, every time.

const dir = await mkdtemp(join(tmpdir(), 'agentlib-graph-cassette-'));
let server: EchoOpenAIServer;
process.env['GRAPH_CASSETTE_TEST_KEY'] = 'sk-test-not-a-real-key';

async function writeProject(baseUrl: string): Promise<void> {
  const agent = (name: string, prompt: string): string =>
    `name: ${name}\nprovider:\n  type: openai\n  base_url: ${baseUrl}\n  api_key_env: GRAPH_CASSETTE_TEST_KEY\nmodel: gpt-4o-mini\nsystem_prompt: ${prompt}\n`;
  await writeFile(join(dir, 'research.yaml'), agent('research', 'Researcher. Collect facts.'));
  await writeFile(join(dir, 'write.yaml'), agent('write', 'Writer. Write a paragraph.'));
  await writeFile(join(dir, 'nodes.mjs'), `export function publish(state) { return 'published (' + state.data.__human_input__ + '): ' + state.data.__last_output__; }\n`);
  await writeFile(
    join(dir, 'pipeline.graph.yaml'),
    `kind: graph\nname: pipeline\nentry: research\nnodes:\n  research: { agent: ./research.yaml, next: write }\n  write: { agent: ./write.yaml, next: publish }\n  publish: { function: ./nodes.mjs#publish, interrupt_before: "Publish?" }\n`,
  );
  await writeFile(join(dir, 'functions.graph.yaml'), `kind: graph\nname: fns\nentry: publish\nnodes:\n  publish: { function: ./nodes.mjs#publish }\n`);
}

before(async () => {
  server = await startEchoOpenAIServer();
  await writeProject(server.baseUrl);
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const context = (io: ReturnType<typeof memoryIO>): Parameters<typeof run>[1] => ({ io: { ...io, cwd: dir }, signal: new AbortController().signal, version: '0.0.0', color: false });
const base = { color: false, debug: false, _: [] as string[], checkpoint: 'memory://', 'output-format': 'json' };

interface Summary {
  status: string;
  content: string;
  interruptId: string | null;
  history: string[];
  totalUsage: { totalTokens: number };
}

async function graph(args: Record<string, unknown>): Promise<{ code: number; summary: Summary; err: string }> {
  const io = memoryIO();
  const code = await run({ ...base, ...args }, context(io));
  return { code, summary: JSON.parse(io.out()) as Summary, err: io.err() };
}

describe('agentlib graph --record / --replay', () => {
  test('a run and its resume recorded, then replayed offline: the same answers and history on every replay', async () => {
    const checkpoint = `sqlite://${join(dir, 'record.db')}`;
    const recorded = await graph({ action: 'run', args: ['pipeline.graph.yaml', 'tides'], record: 'run.cassette.jsonl', checkpoint, thread: 'recorded' });
    assert.equal(recorded.code, EXIT_INTERRUPTED_FOR_INPUT, recorded.err);
    assert.match(recorded.err, /recorded 2 provider call\(s\) to .*run\.cassette\.jsonl/);
    assert.equal(server.calls, 2);
    const lines = (await readFile(join(dir, 'run.cassette.jsonl'), 'utf8')).trim().split('\n');
    assert.equal(lines.length, 3, 'a header and one line per provider call of both agent nodes');
    const resumed = await graph({ action: 'resume', args: [recorded.summary.interruptId], response: 'yes', record: 'resume.cassette.jsonl', checkpoint });
    assert.equal(resumed.code, 0, resumed.err);
    assert.match(resumed.err, /recorded 0 provider call\(s\)/, 'the resume runs only the function node');
    assert.equal(resumed.summary.content, 'published (yes): Writer.: Researcher.: tides');

    await server.close(); // from here on, any provider call would fail: replay must not need one
    for (const trial of [1, 2]) {
      const replayCheckpoint = `sqlite://${join(dir, `replay-${trial}.db`)}`;
      const replayed = await graph({ action: 'run', args: ['pipeline.graph.yaml', 'tides'], replay: 'run.cassette.jsonl', checkpoint: replayCheckpoint, thread: 'recorded' });
      assert.equal(replayed.code, EXIT_INTERRUPTED_FOR_INPUT, replayed.err);
      assert.deepEqual(replayed.summary.history, recorded.summary.history);
      assert.equal(replayed.summary.totalUsage.totalTokens, recorded.summary.totalUsage.totalTokens);
      assert.doesNotMatch(replayed.err, /not used/);
      const done = await graph({ action: 'resume', args: [replayed.summary.interruptId], response: 'yes', replay: 'resume.cassette.jsonl', checkpoint: replayCheckpoint });
      assert.equal(done.code, 0, done.err);
      assert.equal(done.summary.content, resumed.summary.content);
      assert.deepEqual(done.summary.history, ['research', 'write', 'publish']);
    }
  });

  test('a replay whose prompt differs from the recording fails with the first difference', async () => {
    await assert.rejects(
      Promise.resolve(run({ ...base, action: 'run', args: ['pipeline.graph.yaml', 'volcanoes'], replay: 'run.cassette.jsonl' }, context(memoryIO()))),
      /does not match the cassette.*recorded "tides", now "volcanoes"/s,
    );
  });

  test('--record and --replay are refused where they would do nothing', async () => {
    await assert.rejects(Promise.resolve(run({ ...base, action: 'run', args: ['functions.graph.yaml', 'x'], record: 'x.jsonl' }, context(memoryIO()))), /no agent node/);
    await assert.rejects(Promise.resolve(run({ ...base, action: 'run', args: ['functions.graph.yaml', 'x'], replay: 'run.cassette.jsonl' }, context(memoryIO()))), /no agent node/);
    await assert.rejects(Promise.resolve(run({ ...base, action: 'render', args: ['pipeline.graph.yaml'], record: 'x.jsonl' }, context(memoryIO()))), /apply to graph run, resume and fork/);
    await assert.rejects(Promise.resolve(run({ ...base, action: 'run', args: ['pipeline.graph.yaml', 'x'], record: 'a.jsonl', replay: 'b.jsonl' }, context(memoryIO()))), /cannot be used together/);
  });
});
