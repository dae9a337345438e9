import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadAgentConfig } from '../../lib/config/parse-agent-config.js';
import { binPath, ensureCliBuilt } from '../support/cli-build.js';
import { requires } from '../support/requirements.js';
import { shellQuote, waitFor } from '../support/tmux.js';
import { initProject } from './init/helpers.js';

describe('agentlib init in a real terminal (tmux)', requires('tmux'), () => {
  let project: ReturnType<typeof initProject>;
  const session = `agentlib-init-${process.pid}`;
  before(() => {
    ensureCliBuilt();
    project = initProject();
  });
  after(() => {
    spawnSync('tmux', ['kill-session', '-t', session], { stdio: 'ignore' });
    project.cleanup();
  });

  const pane = (): string => execFileSync('tmux', ['capture-pane', '-p', '-t', session], { encoding: 'utf8' });

  test('Enter through every question takes the defaults and writes a valid blank agent', async () => {
    const target = join(project.dir, 'wizard');
    const exitFile = join(project.dir, 'exit-code');
    const command = `cd ${shellQuote(project.dir)} && env -u CI NO_COLOR=1 ${shellQuote(process.execPath)} ${shellQuote(binPath)} init ${shellQuote(target)}; echo $? > ${shellQuote(exitFile)}; sleep 60`;
    execFileSync('tmux', ['new-session', '-d', '-s', session, '-x', '160', '-y', '40', command]);
    // answer each question once it is on the screen (keys sent earlier could reach no prompt)
    for (const question of [/[?✔] Template/, /[?✔] Agent name/, /[?✔] Provider/, /[?✔] Model/, /[?✔] Write agent\.yaml, tools\.ts, cassette\.jsonl, PROVENANCE\.md and 1 more to wizard\?/]) {
      await waitFor(() => question.test(pane()), `the question ${String(question)}`);
      execFileSync('tmux', ['send-keys', '-t', session, 'Enter']);
    }
    await waitFor(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '', 'init to finish');
    assert.equal(readFileSync(exitFile, 'utf8').trim(), '0', pane());
    assert.ok(existsSync(join(target, 'agent.yaml')));
    assert.ok(existsSync(join(target, 'tools.ts')));
    const config = await loadAgentConfig(join(target, 'agent.yaml'));
    assert.deepEqual([config.name, config.provider, config.model], ['my_agent', 'openai', 'gpt-4o-mini']);
    assert.match(pane(), /Created agent "my_agent"/);
  });
});
