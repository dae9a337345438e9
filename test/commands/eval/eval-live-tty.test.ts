// The live view of `agentlib eval run` in a real terminal (tmux): a suite replayed from per-case
// cassettes (recorded first, in this test, against a loopback OpenAI-compatible server), two
// workers, one case held inside its tool until the test lets it go: the frames show each worker's
// case and what its run waits on, and the final summary replaces the view.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { execa } from 'execa';
import { binPath, ensureCliBuilt } from '../../support/cli-build.js';
import { jsonResponse, startReplayServer, type ReplayServer } from '../../support/replay-server.js';
import { requires } from '../../support/requirements.js';
import { shellQuote, tmuxSession, waitFor } from '../../support/tmux.js';
import { keylessEnv } from '../../templates/offline-run.js';
import { initProject } from '../init/helpers.js';

const AGENT = 'name: gated\nprovider: openai\nmodel: gpt-4o-mini\ntools: [./tools.ts]\nsystem_prompt: Call wait_for_go when asked to wait.\n';

// The tool polls for a file named `go` in the working directory: the test creates it when it has seen the frame it wants.
const TOOLS = `import { existsSync } from 'node:fs';
import { tool, z } from 'agentlib';

export const waitForGo = tool({
  name: 'wait_for_go',
  description: 'Waits until the file "go" exists in the working directory',
  parameters: z.object({}),
  execute: () => new Promise<string>((resolve) => {
    const timer = setInterval(() => {
      if (existsSync('go')) {
        clearInterval(timer);
        resolve('go');
      }
    }, 20);
  }),
});
`;

const SUITE = `description: live view
agent: agent.yaml
tests:
  - description: held
    input: Wait for the go signal, then say done.
    assert:
      - type: tool-used
        value: wait_for_go
      - type: contains
        value: done
  - description: quick
    input: Say hello.
    assert:
      - type: icontains
        value: hello
`;

function completion(message: Record<string, unknown>, finish: string): ReturnType<typeof jsonResponse> {
  return jsonResponse({ id: 'chatcmpl-live', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }], usage: { prompt_tokens: 40, completion_tokens: 8, total_tokens: 48 } });
}

describe('agentlib eval run: the live view in a real terminal (tmux)', requires('tmux'), () => {
  let server: ReplayServer;
  let project: ReturnType<typeof initProject>;
  const tmux = tmuxSession('agentlib-eval-live');
  before(async () => {
    ensureCliBuilt();
    server = await startReplayServer();
    project = initProject();
  });
  after(async () => {
    tmux.kill();
    await server.close();
    project.cleanup();
  });

  test('each worker line shows its case and the tool its run waits on; the summary follows the view', async () => {
    const dir = project.dir;
    writeFileSync(join(dir, 'agent.yaml'), AGENT);
    writeFileSync(join(dir, 'tools.ts'), TOOLS);
    writeFileSync(join(dir, 'suite.yaml'), SUITE);
    // Record the cassettes (one per case) with the go file present, so nothing waits.
    writeFileSync(join(dir, 'go'), '');
    server.enqueue(
      completion({ content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'wait_for_go', arguments: '{}' } }] }, 'tool_calls'),
      completion({ content: 'Got the go signal: done.' }, 'stop'),
      completion({ content: 'Hello!' }, 'stop'),
    );
    const env = { ...keylessEnv(), OPENAI_API_KEY: 'sk-test-not-a-real-key', OPENAI_BASE_URL: `${server.url}/v1` };
    const recorded = await execa(process.execPath, [binPath, 'eval', 'run', 'suite.yaml', '-j', '1', '--record', 'cassettes/'], { cwd: dir, reject: false, extendEnv: false, env, timeout: 60_000 });
    assert.equal(recorded.exitCode, 0, `${recorded.stdout}\n${recorded.stderr}`);
    assert.equal(readdirSync(join(dir, 'cassettes')).length, 2);
    rmSync(join(dir, 'go'));

    // Replay offline in a terminal: CI unset, no key, no base URL.
    const exitFile = join(dir, 'exit-code');
    const offline = Object.entries(keylessEnv()).filter(([key]) => key !== 'CI').map(([key, value]) => `${key}=${shellQuote(value ?? '')}`).join(' ');
    tmux.start(`cd ${shellQuote(dir)} && env -i ${offline} ${shellQuote(process.execPath)} ${shellQuote(binPath)} eval run suite.yaml --replay cassettes -j 2; echo $? > ${shellQuote(exitFile)}; sleep 60`, 120, 30);
    // The frame while `held` waits in its tool: the quick case is done, its worker idle.
    await waitFor(() => /worker \d: held \(run 1\) tool wait_for_go, \d+\.\d s/.test(tmux.pane()) && /1\/2 {2}✓ 1/.test(tmux.pane()), 'the frame with held inside wait_for_go and quick passed', 60_000).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}; the screen:\n${tmux.pane()}`);
    });
    const frame = tmux.pane();
    assert.match(frame, /\[█{15}░{15}\] 1\/2 {2}✓ 1 {2}✗ 0 {2}! 0/);
    assert.match(frame, /worker \d: idle/);
    assert.doesNotMatch(frame, /waiting for the agent/);
    writeFileSync(join(dir, 'go'), '');
    await waitFor(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '', 'the suite to finish', 60_000).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}; the screen:\n${tmux.pane()}`);
    });
    const final = tmux.pane();
    assert.equal(readFileSync(exitFile, 'utf8').trim(), '0', final);
    assert.match(final, /\[█{30}\] 2\/2 {2}✓ 2 {2}✗ 0 {2}! 0/, 'the last frame shows every case done');
    assert.match(final, /│ held +│ pass +│ 1\.00/, 'the summary table');
    assert.match(final, /│ quick +│ pass +│ 1\.00/);
    assert.match(final, /live view: 100% accuracy — 2 passed, 0 failed, 0 errors, 0 skipped/);
    assert.doesNotMatch(final, /tool wait_for_go/, 'no worker line is left running');
  });
});
