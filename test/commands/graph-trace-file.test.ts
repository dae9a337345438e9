import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { binPath, ensureCliBuilt } from '../support/cli-build.js';
import { startEchoOpenAIServer, type EchoOpenAIServer } from '../support/echo-openai-server.js';

// `agentlib graph run` writes its trace like `agentlib run` (.agentlib/traces/<runId>.jsonl,
// `--trace <file>`, `--no-trace`), and `agentlib trace view` shows it as a graph: nodes as spans,
// the parallel group's branches side by side under it, each nested agent run under its node.
// The built binary, a graph recorded once against a loopback OpenAI-compatible server and then
// replayed from its cassette with the server gone (no network).

const dir = await mkdtemp(join(tmpdir(), 'agentlib-graph-trace-'));
let server: EchoOpenAIServer;
const env = { ...process.env, GRAPH_TRACE_TEST_KEY: 'sk-test-not-a-real-key', NO_COLOR: '1', COLUMNS: '120' } as Record<string, string | undefined>;
delete env['FORCE_COLOR'];

interface Cli {
  code: number;
  out: string;
  err: string;
}

function agentlib(...argv: string[]): Promise<Cli> {
  return new Promise((done) => {
    execFile(process.execPath, [binPath, ...argv], { cwd: dir, env, encoding: 'utf8' }, (error, out, err) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      done({ code, out, err });
    });
  });
}

before(async () => {
  ensureCliBuilt();
  server = await startEchoOpenAIServer();
  const agent = (name: string, prompt: string): string =>
    `name: ${name}\nprovider:\n  type: openai\n  base_url: ${server.baseUrl}\n  api_key_env: GRAPH_TRACE_TEST_KEY\nmodel: gpt-4o-mini\nsystem_prompt: ${prompt}\n`;
  await writeFile(join(dir, 'write.yaml'), agent('writer', 'Writer. Write a paragraph.'));
  await writeFile(join(dir, 'critic.yaml'), agent('critic-agent', 'Critic. Criticise it.'));
  await writeFile(join(dir, 'facts.yaml'), agent('facts-agent', 'Facts. Check the facts.'));
  await writeFile(
    join(dir, 'fan.graph.yaml'),
    'kind: graph\nname: fan\nentry: write\nnodes:\n  write: { agent: ./write.yaml, next: team }\n  team:\n    parallel:\n      critic: { agent: ./critic.yaml }\n      facts: { agent: ./facts.yaml }\n    merge: append\n',
  );
  const recorded = await agentlib('graph', 'run', 'fan.graph.yaml', 'tides', '--record', 'fan.cassette.jsonl', '--checkpoint', 'memory://', '--no-trace', '--output-format', 'json');
  assert.equal(recorded.code, 0, recorded.err);
  assert.equal(server.calls, 3);
  await server.close(); // from here on a provider call would fail: only the cassette answers
});
after(() => rm(dir, { recursive: true, force: true }));

interface StepJson {
  id: string;
  runId: string;
  type: string;
  name?: string;
  parentId?: string;
  startedAt: number;
  durationMs: number;
  output?: string;
}

interface ViewJson {
  trace: { runId: string; agentName: string; status: string; steps: StepJson[]; nestedRuns: { runId: string; parentStepId?: string }[] };
}

describe('agentlib graph run → trace file → agentlib trace view', () => {
  test('the default trace file is .agentlib/traces/<graph run id>.jsonl, named in the JSON result; --no-trace writes none', async () => {
    const replayed = await agentlib('graph', 'run', 'fan.graph.yaml', 'tides', '--replay', 'fan.cassette.jsonl', '--checkpoint', 'memory://', '--output-format', 'json');
    assert.equal(replayed.code, 0, replayed.err);
    const result = JSON.parse(replayed.out) as { runId: string; trace: string | null };
    assert.equal(result.trace, join('.agentlib', 'traces', `${result.runId}.jsonl`));
    const header = JSON.parse((await readFile(join(dir, result.trace), 'utf8')).split('\n')[0] ?? '') as { runId: string; status: string; agentName: string; incomplete?: boolean };
    assert.equal(header.runId, result.runId);
    assert.equal(header.agentName, 'fan');
    assert.equal(header.status, 'completed');
    assert.equal(header.incomplete, undefined, 'the finished trace replaced the partial file');

    const before = await readdir(join(dir, '.agentlib', 'traces'));
    const none = await agentlib('graph', 'run', 'fan.graph.yaml', 'tides', '--replay', 'fan.cassette.jsonl', '--checkpoint', 'memory://', '--no-trace');
    assert.equal(none.code, 0, none.err);
    assert.doesNotMatch(none.err, /^trace /m);
    assert.deepEqual(await readdir(join(dir, '.agentlib', 'traces')), before);

    const misplaced = await agentlib('graph', 'render', 'fan.graph.yaml', '--trace', 'x.jsonl');
    assert.equal(misplaced.code, 2);
    assert.match(misplaced.err, /--trace and --no-trace apply to graph run, resume and fork/);
  });

  test('resume and fork write their own traces: the interrupted run, the resumed one, the fork', async () => {
    await writeFile(join(dir, 'nodes.mjs'), "export function draft() { return 'draft'; }\nexport function publish(state) { return 'published (' + state.data.__human_input__ + ')'; }\n");
    await writeFile(join(dir, 'ask.graph.yaml'), 'kind: graph\nname: ask\nentry: draft\nnodes:\n  draft: { function: ./nodes.mjs#draft, next: publish }\n  publish: { function: ./nodes.mjs#publish, interrupt_before: "Publish?" }\n');
    const checkpoint = `sqlite://${join(dir, 'ask.db')}`;
    const header = async (file: string): Promise<{ runId: string; status: string }> => JSON.parse((await readFile(join(dir, file), 'utf8')).split('\n')[0] ?? '') as { runId: string; status: string };
    const steps = async (file: string): Promise<string[]> => {
      const view = await agentlib('trace', 'view', file, '--json');
      assert.equal(view.code, 0, view.err);
      return (JSON.parse(view.out) as ViewJson).trace.steps.filter((s) => s.type === 'graph_node_start').map((s) => s.name ?? '');
    };
    const first = await agentlib('graph', 'run', 'ask.graph.yaml', 'go', '--checkpoint', checkpoint, '--trace', 'ask-run.jsonl', '--output-format', 'json');
    assert.equal(first.code, 5, first.err);
    const interrupted = JSON.parse(first.out) as { interruptId: string; trace: string };
    assert.equal(interrupted.trace, 'ask-run.jsonl');
    assert.equal((await header('ask-run.jsonl')).status, 'interrupted');
    assert.deepEqual(await steps('ask-run.jsonl'), ['draft']);

    const resumed = await agentlib('graph', 'resume', interrupted.interruptId, '--response', 'yes', '--checkpoint', checkpoint, '--trace', 'ask-resume.jsonl');
    assert.equal(resumed.code, 0, resumed.err);
    assert.match(resumed.err, /^trace ask-resume\.jsonl$/m);
    assert.equal((await header('ask-resume.jsonl')).status, 'completed');
    assert.deepEqual(await steps('ask-resume.jsonl'), ['publish'], 'the resume ran (and traced) only the interrupted node');

    const listed = await agentlib('graph', 'checkpoints', 'ls', '--checkpoint', checkpoint, '--output-format', 'json');
    const draftDone = (JSON.parse(listed.out) as { id: string; node: string | null; status: string }[]).find((c) => c.node === 'draft');
    assert.ok(draftDone, listed.out);
    const forked = await agentlib('graph', 'fork', draftDone.id, '--checkpoint', checkpoint, '--output-format', 'json');
    assert.equal(forked.code, 5, forked.err);
    const fork = JSON.parse(forked.out) as { runId: string; trace: string };
    assert.equal(fork.trace, join('.agentlib', 'traces', `${fork.runId}.jsonl`));
    assert.equal((await header(fork.trace)).runId, fork.runId);
  });

  test('a graph run that fails still writes its trace (status error, the failed node), and names it on stderr', async () => {
    await writeFile(join(dir, 'boom.mjs'), "export function boom() { throw new Error('the boom node broke'); }\n");
    await writeFile(join(dir, 'boom.graph.yaml'), 'kind: graph\nname: boom\nentry: boom\nnodes:\n  boom: { function: ./boom.mjs#boom }\n');
    const failed = await agentlib('graph', 'run', 'boom.graph.yaml', 'go', '--checkpoint', 'memory://', '--trace', 'boom.jsonl');
    assert.equal(failed.code, 3, failed.err);
    assert.match(failed.err, /^trace boom\.jsonl$/m);
    const view = await agentlib('trace', 'view', 'boom.jsonl', '--json');
    assert.equal(view.code, 0, view.err);
    const { trace } = JSON.parse(view.out) as ViewJson;
    assert.equal(trace.status, 'error');
    assert.ok(trace.steps.some((s) => s.type === 'graph_node_start' && s.name === 'boom'));
    assert.match(JSON.stringify(trace.steps), /the boom node broke/);
  });

  test('trace view --json: node → parallel group → member nodes → their agent runs → llm calls; the branches overlap in time', async () => {
    const replayed = await agentlib('graph', 'run', 'fan.graph.yaml', 'tides', '--replay', 'fan.cassette.jsonl', '--checkpoint', 'memory://', '--trace', 'fan.trace.jsonl');
    assert.equal(replayed.code, 0, replayed.err);
    assert.match(replayed.err, /^trace fan\.trace\.jsonl$/m, 'text mode names the trace file on stderr');
    assert.ok(existsSync(join(dir, 'fan.trace.jsonl')));

    const view = await agentlib('trace', 'view', 'fan.trace.jsonl', '--json');
    assert.equal(view.code, 0, view.err);
    const { trace } = JSON.parse(view.out) as ViewJson;
    assert.equal(trace.agentName, 'fan');
    assert.equal(trace.status, 'completed');
    const steps = trace.steps;
    const node = (name: string): StepJson => {
      const found = steps.find((s) => s.type === 'graph_node_start' && s.name === name);
      assert.ok(found, `node ${name}`);
      return found;
    };
    const group = steps.find((s) => s.type === 'graph_parallel_start');
    assert.ok(group);
    assert.equal(node('write').parentId, undefined);
    assert.equal(group.parentId, node('team').id, 'the parallel group runs inside the team node');
    const llmCalls = steps.filter((s) => s.type === 'llm_call');
    assert.equal(llmCalls.length, 3);
    for (const [member, prompt] of [['write', 'Writer'], ['critic', 'Critic'], ['facts', 'Facts']] as const) {
      const span = node(member);
      assert.ok(span.durationMs >= 0);
      if (member !== 'write') assert.equal(span.parentId, group.id, `${member} is a branch of the group`);
      const llm = llmCalls.find((s) => s.output?.startsWith(`${prompt}.:`));
      assert.ok(llm, `the llm call of ${member}`);
      assert.notEqual(llm.runId, trace.runId, 'the agent run is nested, with its own run id');
      assert.equal(llm.parentId, span.id, `${member}'s agent run hangs under ${member}`);
      assert.ok(trace.nestedRuns.some((r) => r.runId === llm.runId && r.parentStepId === span.id));
    }
    const [critic, facts] = [node('critic'), node('facts')];
    assert.ok(critic.startedAt <= facts.startedAt + facts.durationMs && facts.startedAt <= critic.startedAt + critic.durationMs, 'the branches run at the same time');
  });

  test('trace view when piped: the static tree with the branches under the group, side by side in the waterfall', async () => {
    const view = await agentlib('trace', 'view', 'fan.trace.jsonl', '--ascii');
    assert.equal(view.code, 0, view.err);
    const lines = view.out.split('\n');
    const line = (pattern: RegExp): { index: number; text: string } => {
      const index = lines.findIndex((l) => pattern.test(l));
      assert.ok(index >= 0, `${String(pattern)} in\n${view.out}`);
      return { index, text: lines[index] ?? '' };
    };
    const depth = (text: string): number => text.search(/graph_|llm_call/);
    const team = line(/graph_node_start team\b/);
    const group = line(/graph_parallel_start critic, facts/);
    const critic = line(/graph_node_start critic\b/);
    const facts = line(/graph_node_start facts\b/);
    assert.ok(depth(group.text) > depth(team.text), 'the group is indented under the team node');
    assert.equal(depth(critic.text), depth(facts.text), 'the branches are siblings');
    assert.ok(depth(critic.text) > depth(group.text), 'the branches are indented under the group');
    assert.ok(team.index < group.index && group.index < critic.index && group.index < facts.index);
    const llmUnderCritic = lines.slice(critic.index + 1).find((l) => /llm_call/.test(l));
    assert.ok(llmUnderCritic !== undefined && depth(llmUnderCritic) > depth(critic.text), 'the agent run of critic under it');
    // Waterfall: the bars of both branches share columns (they ran at the same time).
    const header = line(/^\s+step\s+time\s+tokens\s+cost\s+0\s/).text;
    const waterfall = header.search(/ 0 /) + 1; // the column where the waterfall starts
    const bar = (text: string): [number, number] => {
      const match = /#+/.exec(text.slice(waterfall));
      assert.ok(match, `a bar in ${text}`);
      const start = waterfall + match.index;
      return [start, start + match[0].length];
    };
    const [a, b] = [bar(critic.text), bar(facts.text)];
    assert.ok(a[0] < b[1] && b[0] < a[1], `the bars overlap:\n${critic.text}\n${facts.text}`);
  });
});
