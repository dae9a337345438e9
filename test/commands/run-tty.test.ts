import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { binPath, ensureCliBuilt } from '../support/cli-build.js';
import { requires } from '../support/requirements.js';
import { shellQuote, waitFor } from '../support/tmux.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { ANSWER, cliEnv, enqueueCalculator, QUESTION, scratchProject } from './run-helpers.js';


describe('agentlib run in a real terminal (tmux)', requires('tmux'), () => {
  let server: ReplayServer;
  let project: ReturnType<typeof scratchProject>;
  const session = `agentlib-run-${process.pid}`;
  before(async () => {
    ensureCliBuilt();
    server = await startReplayServer();
    project = scratchProject();
  });
  after(async () => {
    spawnSync('tmux', ['kill-session', '-t', session], { stdio: 'ignore' });
    await server.close();
    project.cleanup();
  });

  const pane = (): string => execFileSync('tmux', ['capture-pane', '-p', '-t', session], { encoding: 'utf8' });

  test('a review-gated tool asks on the terminal; "y" approves it and the run finishes', async () => {
    const file = join(project.dir, 'calculator', 'gated.yaml');
    writeFileSync(file, 'name: gated\nprovider: openai\nmodel: gpt-4o-mini\ntools: [./tools.ts]\npolicy:\n  review: [multiply]\n');
    enqueueCalculator(server);
    const exitFile = join(project.dir, 'exit-code');
    const env = Object.entries(cliEnv(server)).map(([k, v]) => `${k}=${shellQuote(v)}`).join(' ');
    const command = `cd ${shellQuote(project.dir)} && env -u CI ${env} CI= ${shellQuote(process.execPath)} ${shellQuote(binPath)} run ${shellQuote(file)} ${shellQuote(QUESTION)} --no-trace; echo $? > ${shellQuote(exitFile)}; sleep 60`;
    execFileSync('tmux', ['new-session', '-d', '-s', session, '-x', '160', '-y', '40', command]);
    await waitFor(() => /Allow multiply/.test(pane()), 'the approval prompt');
    assert.match(pane(), /Allow multiply\(\{"a":1231,"b":2331\}\)\?/);
    execFileSync('tmux', ['send-keys', '-t', session, 'y', 'Enter']);
    await waitFor(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '', 'the run to end');
    assert.equal(readFileSync(exitFile, 'utf8').trim(), '0');
    const body = server.requests.at(-1)?.json as { messages: { role: string; content: string }[] };
    assert.equal(body.messages.find((m) => m.role === 'tool')?.content, '2869461');
    const screen = pane();
    assert.match(screen, /✓ multiply/);
    assert.ok(screen.replace(/\s+/g, ' ').includes(ANSWER), screen);
  });
});
