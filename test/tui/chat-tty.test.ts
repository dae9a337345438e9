// `agentlib chat` end to end: the built binary in a real terminal (tmux), its provider calls
// answered by the loopback replay server from recorded OpenAI traffic (or a cassette).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { binPath, ensureCliBuilt } from '../support/cli-build.js';
import { fixture, startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { requires } from '../support/requirements.js';
import { shellQuote, waitFor } from '../support/tmux.js';
import { enqueueCalculator, QUESTION, scratchProject } from '../commands/run-helpers.js';

/** A recorded text stream ("I'm unable to …"), one SSE event per chunk, slowly: a turn to interrupt. */
function slowTextStream(delayMs: number): { status: number; headers: Record<string, string>; chunks: string[]; chunkDelayMs: number } {
  const events = fixture('openai/chat.text.stream.include_usage.sse').toString('utf8').split(/(?<=\n\n)/);
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: events, chunkDelayMs: delayMs };
}

describe('agentlib chat in a real terminal (tmux)', requires('tmux'), () => {
  let project: ReturnType<typeof scratchProject>;
  let server: ReplayServer;
  let gated: string;
  const sessions: string[] = [];
  before(async () => {
    ensureCliBuilt();
    project = scratchProject();
    server = await startReplayServer();
    gated = join(project.dir, 'calculator', 'gated.yaml');
    writeFileSync(gated, `${readFileSync(project.agent, 'utf8')}\npolicy:\n  review: [multiply]\n`);
  });
  after(async () => {
    for (const session of sessions) spawnSync('tmux', ['kill-session', '-t', session], { stdio: 'ignore' });
    project.cleanup();
    await server.close();
  });

  /**
   * Starts `agentlib chat <args>` (the built binary) in a fresh tmux session, with NO_COLOR=1
   * unless `color`. `pane({ escapes: true })` keeps the colour and style escapes (`capture-pane -e`).
   */
  function start(
    name: string,
    args: readonly string[],
    options: { color?: boolean } = {},
  ): { pane: (capture?: { escapes?: boolean }) => string; keys: (...keys: string[]) => void; exitCode: () => string | undefined } {
    const session = `agentlib-chat-${name}-${process.pid}`;
    sessions.push(session);
    const exitFile = join(project.dir, `exit-${name}`);
    const colour = options.color === true ? '-u NO_COLOR -u FORCE_COLOR' : 'NO_COLOR=1';
    const env = `env -u CI -u CONTINUOUS_INTEGRATION ${colour} OPENAI_API_KEY=sk-test-not-a-real-key OPENAI_BASE_URL=${shellQuote(`${server.url}/v1`)}`;
    const command = `cd ${shellQuote(project.dir)} && ${env} ${shellQuote(process.execPath)} ${shellQuote(binPath)} chat ${args.map(shellQuote).join(' ')}; echo $? > ${shellQuote(exitFile)}; sleep 60`;
    execFileSync('tmux', ['new-session', '-d', '-s', session, '-x', '120', '-y', '40', command]);
    return {
      pane: (capture = {}) => execFileSync('tmux', ['capture-pane', '-p', ...(capture.escapes === true ? ['-e'] : []), '-t', session], { encoding: 'utf8' }),
      keys: (...keys) => void execFileSync('tmux', ['send-keys', '-t', session, ...keys]),
      exitCode: () => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8').trim() || undefined : undefined),
    };
  }

  async function ask(chat: ReturnType<typeof start>, prompt: string): Promise<void> {
    await waitFor(() => chat.pane().includes('Ask something'), 'the input line', 30_000);
    chat.keys('-l', prompt);
    chat.keys('Enter');
  }

  test('from a cassette: the answer streams with a ✓ multiply tool card; Ctrl+C twice quits with 0', async () => {
    const chat = start('plain', [project.agent, '--replay', join(project.dir, 'calculator', 'cassette.jsonl')]);
    await waitFor(() => chat.pane().includes('Ask something'), 'the input line', 30_000);
    assert.match(chat.pane(), /calculator · openai\/gpt-4o-mini · 0 tokens/);
    await ask(chat, QUESTION);
    await waitFor(() => chat.pane().includes('done in'), 'the answer');
    const screen = chat.pane();
    assert.match(screen, /✓ multiply\(a=1231, b=2331\)/);
    assert.match(screen, /⎿ 2869461/);
    assert.ok(screen.replace(/\s+/g, ' ').includes('2,869,461'), screen);
    // The recorded usage (162 + 25 tokens of gpt-4o-mini) costs $0.000049: never shown as $0.0000.
    assert.match(screen, /^done in \S+ · 187 tokens · \$0\.000049$/m, 'the turn-end line');
    assert.match(screen, /^calculator · openai\/gpt-4o-mini · 187 tokens · \$0\.000049 · ctx <1% · approve: ask$/m, 'the footer after the turn');
    // NO_COLOR=1: not one colour or style escape reaches the terminal.
    assert.doesNotMatch(chat.pane({ escapes: true }), /\u001b\[/);
    chat.keys('C-c');
    await waitFor(() => chat.pane().includes('press Ctrl+C again to quit'), 'the quit hint');
    chat.keys('C-c');
    await waitFor(() => chat.exitCode() !== undefined, 'the chat to exit');
    assert.equal(chat.exitCode(), '0');
  });

  test('without NO_COLOR the chat is drawn in colour (tmux capture-pane -e shows the escapes)', async () => {
    const chat = start('colour', [project.agent, '--replay', join(project.dir, 'calculator', 'cassette.jsonl')], { color: true });
    await ask(chat, QUESTION);
    await waitFor(() => chat.pane().includes('done in'), 'the answer');
    const coloured = chat.pane({ escapes: true });
    assert.match(coloured, /\u001b\[[0-9;]*m/, 'colour or style escapes');
    assert.match(coloured, /\u001b\[32m(\u001b\[49m)?✓/, 'the ✓ of the tool card is green');
    assert.match(chat.pane(), /187 tokens · \$0\.000049/);
    chat.keys('-l', '/exit');
    chat.keys('Enter');
    await waitFor(() => chat.exitCode() !== undefined, 'the chat to exit');
    assert.equal(chat.exitCode(), '0');
  });

  test('a review-gated tool asks in the chat; y approves it and the model gets the result', async () => {
    enqueueCalculator(server);
    const first = server.requests.length;
    const chat = start('gated', [gated]);
    await ask(chat, QUESTION);
    await waitFor(() => chat.pane().includes('Allow multiply'), 'the approval prompt');
    const prompt = chat.pane();
    assert.match(prompt, /\? Allow multiply\(\{"a":1231,"b":2331\}\)\?/);
    assert.match(prompt, /1 Allow once \(y\)/);
    assert.match(prompt, /4 Deny and tell the model why \(f\)/);
    chat.keys('y');
    await waitFor(() => chat.pane().includes('done in'), 'the answer');
    assert.match(chat.pane(), /✓ multiply\(a=1231, b=2331\)/);
    assert.ok(!chat.pane().includes('Allow multiply'));
    assert.match(JSON.stringify(server.requests[first + 1]?.json), /"role":"tool","tool_call_id":"[^"]+","content":"2869461"/);
    chat.keys('-l', '/exit');
    chat.keys('Enter');
    await waitFor(() => chat.exitCode() !== undefined, 'the chat to exit');
    assert.equal(chat.exitCode(), '0');
  });

  test('f denies with feedback: the card ends x with the feedback, which reaches the model', async () => {
    enqueueCalculator(server);
    const first = server.requests.length;
    const chat = start('feedback', [gated]);
    await ask(chat, QUESTION);
    await waitFor(() => chat.pane().includes('Allow multiply'), 'the approval prompt');
    chat.keys('f');
    await waitFor(() => chat.pane().includes('Feedback for the model:'), 'the feedback line');
    chat.keys('-l', 'do it in your head');
    await waitFor(() => chat.pane().includes('do it in your head'), 'the typed feedback');
    chat.keys('Enter');
    await waitFor(() => chat.pane().includes('done in'), 'the answer');
    const screen = chat.pane();
    assert.match(screen, /x multiply\(a=1231, b=2331\)/);
    assert.match(screen, /⎿ denied: do it in your head/);
    const toolResult = JSON.stringify(server.requests[first + 1]?.json);
    assert.match(toolResult, /"role":"tool"/);
    assert.match(toolResult, /do it in your head/);
    assert.doesNotMatch(toolResult, /2869461/, 'the tool did not run');
    chat.keys('-l', '/exit');
    chat.keys('Enter');
    await waitFor(() => chat.exitCode() !== undefined, 'the chat to exit');
    assert.equal(chat.exitCode(), '0');
  });

  test('Ctrl+C while the answer streams cancels the turn; the chat stays open for the next prompt', async () => {
    server.enqueue(slowTextStream(400));
    const chat = start('cancel', [project.agent]);
    await ask(chat, 'Tell me the weather');
    await waitFor(() => chat.pane().includes("I'm unable"), 'the first streamed words');
    assert.ok(!chat.pane().includes('done in'));
    chat.keys('C-c');
    await waitFor(() => chat.pane().includes('cancelled in'), 'the cancelled turn');
    const screen = chat.pane();
    assert.ok(screen.includes('press Ctrl+C again to quit'), screen);
    assert.match(screen, /› Tell me the weather\nI'm unable/, 'the partial answer stays in the transcript');
    assert.ok(!screen.includes('done in'), 'the turn did not finish');
    assert.ok(!screen.includes('weather app'), 'the rest of the answer never arrived');
    await waitFor(() => chat.pane().includes('Ask something'), 'the input line back');
    chat.keys('-l', '/exit');
    chat.keys('Enter');
    await waitFor(() => chat.exitCode() !== undefined, 'the chat to exit');
    assert.equal(chat.exitCode(), '0');
  });
});
