import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { binPath, ensureCliBuilt } from '../support/cli-build.js';
import { requires } from '../support/requirements.js';
import { shellQuote, tmuxSession, waitFor } from '../support/tmux.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { cliEnv, enqueueCalculator, QUESTION, scratchProject } from './run-helpers.js';

describe('agentlib graph run in a real terminal (tmux): the live view', requires('tmux'), () => {
  let server: ReplayServer;
  let project: ReturnType<typeof scratchProject>;
  const tmux = tmuxSession('agentlib-graph-run');
  const resumeTmux = tmuxSession('agentlib-graph-resume');
  before(async () => {
    ensureCliBuilt();
    server = await startReplayServer();
    project = scratchProject();
  });
  after(async () => {
    tmux.kill();
    resumeTmux.kill();
    await server.close();
    project.cleanup();
  });

  test('draws the graph, streams the agent node, asks before publish; the answer typed in the view finishes the run', async () => {
    writeFileSync(join(project.dir, 'nodes.mjs'), "export function publish(state) { return 'published: ' + state.data.__human_input__; }\n");
    writeFileSync(
      join(project.dir, 'calc.graph.yaml'),
      'kind: graph\nname: calc-review\nentry: calc\nnodes:\n  calc: { agent: ./calculator/agent.yaml, next: publish }\n  publish: { function: ./nodes.mjs#publish, interrupt_before: "Publish the answer?" }\n',
    );
    enqueueCalculator(server);
    const exitFile = join(project.dir, 'exit-code');
    // No CI at all: Ink treats a CI variable that is set, even empty, as CI and draws only the last frame.
    const env = Object.entries(cliEnv(server)).filter(([k]) => k !== 'CI').map(([k, v]) => `${k}=${shellQuote(v)}`).join(' ');
    const store = `sqlite://${join(project.dir, 'ckpt.db')}`;
    tmux.start(`cd ${shellQuote(project.dir)} && env -u CI -u CONTINUOUS_INTEGRATION ${env} ${shellQuote(process.execPath)} ${shellQuote(binPath)} graph run calc.graph.yaml ${shellQuote(QUESTION)} --checkpoint ${shellQuote(store)}; echo $? > ${shellQuote(exitFile)}; sleep 60`, 100, 40);
    await waitFor(() => /Publish the answer\?/.test(tmux.pane()), 'the question in the view').catch((error: unknown) => {
      throw new Error(`${String(error)}\n${tmux.pane()}`);
    });
    const asking = tmux.pane();
    assert.match(asking, /│ *calc *│/, 'the drawing');
    assert.match(asking, /│ *publish ⏸ *│/);
    assert.match(asking, /✓ calc \S+ {2}\? publish/, 'the node strip');
    assert.match(asking, /graph calc-review · step 1 · [1-9][\d.,k]* tokens · \$[\d.]+ · waiting for your answer/, asking);
    tmux.sendKeys('y', 'e', 's', 'Enter');
    await waitFor(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '', 'the run to end');
    assert.equal(readFileSync(exitFile, 'utf8').trim(), '0', tmux.pane());
    const done = tmux.pane();
    assert.match(done, /✓ calc \S+ {2}✓ publish/);
    assert.match(done, /published: yes/);
    assert.match(done, /· completed/);
    assert.equal(server.requests.length, 2, 'the agent node ran once (two LLM calls: tool call, answer)');
    // The live view's run writes its trace like a headless one (.agentlib/traces/<graph run id>.jsonl).
    const traced = /trace (\.agentlib\/traces\/\S+\.jsonl)/.exec(done);
    assert.ok(traced, done);
    const [first, ...stepLines] = readFileSync(join(project.dir, traced[1] ?? ''), 'utf8').trim().split('\n');
    const header = JSON.parse(first ?? '') as { agentName: string; status: string };
    assert.deepEqual([header.agentName, header.status], ['calc-review', 'completed'], 'the status of the run resumed in place');
    const nodes = stepLines.map((l) => JSON.parse(l) as { type: string; name?: string }).filter((s) => s.type === 'graph_node_start').map((s) => s.name);
    assert.deepEqual(nodes, ['calc', 'publish'], 'one trace holds the run and its resume in the view');
  });
  test('graph resume on a terminal: the live view starts with the nodes that ran done, and finishes the run', async () => {
    writeFileSync(join(project.dir, 'review-nodes.mjs'), "export function draft() { return 'v1'; }\nexport function publish(state) { return 'published: ' + state.data.__human_input__; }\n");
    writeFileSync(
      join(project.dir, 'review.graph.yaml'),
      'kind: graph\nname: review\nentry: draft\nnodes:\n  draft: { function: ./review-nodes.mjs#draft, next: publish }\n  publish: { function: ./review-nodes.mjs#publish, interrupt_before: "Publish?" }\n',
    );
    const store = `sqlite://${join(project.dir, 'resume.db')}`;
    const first = spawnSync(process.execPath, [binPath, 'graph', 'run', 'review.graph.yaml', 'go', '--checkpoint', store, '--output-format', 'json'], { cwd: project.dir, env: { ...process.env, ...cliEnv(server) }, encoding: 'utf8' });
    assert.equal(first.status, 5, first.stderr);
    const { interruptId } = JSON.parse(first.stdout) as { interruptId: string };
    const exitFile = join(project.dir, 'resume-exit-code');
    const env = Object.entries(cliEnv(server)).filter(([k]) => k !== 'CI').map(([k, v]) => `${k}=${shellQuote(v)}`).join(' ');
    resumeTmux.start(`cd ${shellQuote(project.dir)} && env -u CI -u CONTINUOUS_INTEGRATION ${env} ${shellQuote(process.execPath)} ${shellQuote(binPath)} graph resume ${shellQuote(interruptId)} --response yes --checkpoint ${shellQuote(store)}; echo $? > ${shellQuote(exitFile)}; sleep 60`, 100, 40);
    await waitFor(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '', 'the resumed run to end');
    const done = resumeTmux.pane();
    assert.equal(readFileSync(exitFile, 'utf8').trim(), '0', done);
    assert.match(done, /│ *publish ⏸ *│/, 'the drawing');
    assert.match(done, /✓ draft\b.*✓ publish/, `draft (run before the resume) and publish both done:\n${done}`);
    assert.match(done, /published: yes/);
    assert.match(done, /· completed/);
  });
});
