import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { waitingText } from '../../commands/run/spinner.js';
import { binPath, ensureCliBuilt } from '../support/cli-build.js';
import { startStallingServer, type StallingServer } from '../support/stalling-server.js';
import { requires } from '../support/requirements.js';
import { shellQuote, tmuxSession, waitFor } from '../support/tmux.js';
import { scratchProject, type ScratchProject } from './run-helpers.js';

describe('the waiting spinner', () => {
  test('shows the label and the whole seconds waited', () => {
    assert.equal(waitingText('waiting for openai', 0), 'waiting for openai · 0 s');
    assert.equal(waitingText('waiting for openai', 12_999), 'waiting for openai · 12 s');
  });
});

describe('agentlib run waiting on a silent provider in a real terminal (tmux)', requires('tmux'), () => {
  let server: StallingServer;
  let project: ScratchProject;
  const tmux = tmuxSession('agentlib-spinner');
  before(async () => {
    ensureCliBuilt();
    [server, project] = [await startStallingServer(), scratchProject()];
  });
  after(async () => {
    tmux.kill();
    await server.close();
    project.cleanup();
  });

  test('the spinner counts the seconds waited, and Ctrl+C clears its line and exits 130', async () => {
    const exitFile = join(project.dir, 'exit-code');
    const env = `OPENAI_API_KEY=sk-test-not-a-real-key OPENAI_BASE_URL=${shellQuote(`${server.url}/v1`)} NO_COLOR=1`;
    // The prompt is printed first so the screen has a fixed line above the spinner's.
    const run = `${shellQuote(process.execPath)} ${shellQuote(binPath)} run ${shellQuote(project.agent)} 'What is 2 + 2?' --timeout 120 --no-trace`;
    const command = `cd ${shellQuote(project.dir)} && echo started && env -u CI ${env} ${run}; echo $? > ${shellQuote(exitFile)}; sleep 60`;
    tmux.start(command, 120, 20);
    await waitFor(() => /waiting for openai \(gpt-4o-mini\) · [1-9]\d* s/.test(tmux.pane()), 'the spinner to count a second');
    tmux.sendKeys('C-c');
    await waitFor(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '', 'the run to end');
    assert.equal(readFileSync(exitFile, 'utf8').trim(), '130');
    const screen = tmux.pane();
    assert.match(screen, /started/);
    assert.doesNotMatch(screen, /waiting for/, screen);
  });
});
