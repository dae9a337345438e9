import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureCliBuilt, repoRoot } from '../support/cli-build.js';
import { hasTmux, shellQuote, waitFor } from '../support/tmux.js';
import { scratchProject } from '../commands/run-helpers.js';

const QUESTION = 'What is 1231 * 2331?';
const script = join(repoRoot, 'test', 'tui', 'fixtures', 'chat-main.ts');
const tsx = join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs');

describe('agentlib chat in a real terminal (tmux)', { skip: hasTmux ? false : 'tmux is not installed' }, () => {
  let project: ReturnType<typeof scratchProject>;
  const sessions: string[] = [];
  before(() => {
    ensureCliBuilt(); // the example's tools import 'agentlib' (the built package)
    project = scratchProject();
  });
  after(() => {
    for (const session of sessions) spawnSync('tmux', ['kill-session', '-t', session], { stdio: 'ignore' });
    project.cleanup();
  });

  /** Starts the chat in a fresh tmux session; returns helpers to read the pane and the exit code. */
  function start(name: string, agentFile: string): { session: string; pane: () => string; keys: (...keys: string[]) => void; exitCode: () => string | undefined } {
    const session = `agentlib-chat-${name}-${process.pid}`;
    sessions.push(session);
    const exitFile = join(project.dir, `exit-${name}`);
    const cassette = join(project.dir, 'calculator', 'cassette.jsonl');
    const command =
      `cd ${shellQuote(project.dir)} && env -u CI NO_COLOR=1 OPENAI_API_KEY=sk-test-not-a-real-key TSX_TSCONFIG_PATH=${shellQuote(join(repoRoot, 'tsconfig.json'))} ` +
      `${shellQuote(process.execPath)} --import ${shellQuote(tsx)} ${shellQuote(script)} chat ${shellQuote(agentFile)} --replay ${shellQuote(cassette)}; ` +
      `echo $? > ${shellQuote(exitFile)}; sleep 60`;
    execFileSync('tmux', ['new-session', '-d', '-s', session, '-x', '120', '-y', '40', command]);
    return {
      session,
      pane: () => execFileSync('tmux', ['capture-pane', '-p', '-t', session], { encoding: 'utf8' }),
      keys: (...keys) => void execFileSync('tmux', ['send-keys', '-t', session, ...keys]),
      exitCode: () => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8').trim() || undefined : undefined),
    };
  }

  test('a prompt streams the answer with a ✓ multiply tool card; Ctrl+C twice quits with 0', async () => {
    const chat = start('plain', project.agent);
    await waitFor(() => chat.pane().includes('Ask something'), 'the input line', 30_000);
    assert.match(chat.pane(), /calculator · openai\/gpt-4o-mini · 0 tokens/);
    chat.keys('-l', QUESTION);
    chat.keys('Enter');
    await waitFor(() => chat.pane().includes('done in'), 'the answer');
    const screen = chat.pane();
    assert.match(screen, /✓ multiply\(a=1231, b=2331\)/);
    assert.match(screen, /⎿ 2869461/);
    assert.ok(screen.replace(/\s+/g, ' ').includes('2,869,461'), screen);
    chat.keys('C-c');
    await waitFor(() => chat.pane().includes('press Ctrl+C again to quit'), 'the quit hint');
    chat.keys('C-c');
    await waitFor(() => chat.exitCode() !== undefined, 'the chat to exit');
    assert.equal(chat.exitCode(), '0');
  });

  test('a review-gated tool asks in the chat; y approves it', async () => {
    const gated = join(project.dir, 'calculator', 'gated.yaml');
    const yaml = readFileSync(project.agent, 'utf8');
    writeFileSync(gated, `${yaml}\npolicy:\n  review: [multiply]\n`);
    const chat = start('gated', gated);
    await waitFor(() => chat.pane().includes('Ask something'), 'the input line', 30_000);
    chat.keys('-l', QUESTION);
    chat.keys('Enter');
    await waitFor(() => chat.pane().includes('Allow multiply'), 'the approval prompt');
    assert.match(chat.pane(), /\? Allow multiply\(\{"a":1231,"b":2331\}\)\?/);
    assert.match(chat.pane(), /y allow once · a allow for this session · n\/esc deny · f deny with feedback/);
    chat.keys('y');
    await waitFor(() => chat.pane().includes('done in'), 'the answer');
    assert.match(chat.pane(), /✓ multiply\(a=1231, b=2331\)/);
    assert.ok(!chat.pane().includes('Allow multiply'));
    chat.keys('-l', '/exit');
    chat.keys('Enter');
    await waitFor(() => chat.exitCode() !== undefined, 'the chat to exit');
    assert.equal(chat.exitCode(), '0');
  });
});
