// `agentlib chat --record` end to end: the built binary in a real terminal (tmux), provider calls
// answered by the loopback replay server. Slash commands while a turn streams, a prompt refused
// meanwhile, and /model appending to the same cassette.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { binPath, ensureCliBuilt } from '../../support/cli-build.js';
import { fixture, startReplayServer, type ReplayServer } from '../../support/replay-server.js';
import { requires } from '../../support/requirements.js';
import { shellQuote, waitFor } from '../../support/tmux.js';
import { scratchProject } from '../../commands/run-helpers.js';

/** A recorded text stream ("I'm unable to …"), one SSE event per chunk, `delayMs` apart. */
function textStream(delayMs: number): { status: number; headers: Record<string, string>; chunks: string[]; chunkDelayMs: number } {
  const events = fixture('openai/chat.text.stream.include_usage.sse').toString('utf8').split(/(?<=\n\n)/);
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: events, chunkDelayMs: delayMs };
}

describe('agentlib chat --record in a real terminal (tmux)', requires('tmux'), () => {
  let project: ReturnType<typeof scratchProject>;
  let server: ReplayServer;
  const session = `agentlib-chat-record-${process.pid}`;
  before(async () => {
    ensureCliBuilt();
    project = scratchProject();
    server = await startReplayServer();
  });
  after(async () => {
    spawnSync('tmux', ['kill-session', '-t', session], { stdio: 'ignore' });
    project.cleanup();
    await server.close();
  });

  test('/cost runs while the answer streams, a prompt waits; /model keeps appending to the cassette', async () => {
    server.enqueue(textStream(250), textStream(5));
    const cassette = join(project.dir, 'chat.cassette.jsonl');
    const exitFile = join(project.dir, 'exit-record');
    const env = `env -u CI -u CONTINUOUS_INTEGRATION NO_COLOR=1 OPENAI_API_KEY=sk-test-not-a-real-key OPENAI_BASE_URL=${shellQuote(`${server.url}/v1`)}`;
    const command = `cd ${shellQuote(project.dir)} && ${env} ${shellQuote(process.execPath)} ${shellQuote(binPath)} chat ${shellQuote(project.agent)} --record ${shellQuote(cassette)}; echo $? > ${shellQuote(exitFile)}; sleep 60`;
    execFileSync('tmux', ['new-session', '-d', '-s', session, '-x', '120', '-y', '40', command]);
    const pane = (): string => execFileSync('tmux', ['capture-pane', '-p', '-t', session], { encoding: 'utf8' });
    const keys = (...args: string[]): void => void execFileSync('tmux', ['send-keys', '-t', session, ...args]);
    const line = (text: string): void => {
      keys('-l', text);
      keys('Enter');
    };

    await waitFor(() => pane().includes('Ask something'), 'the input line', 30_000);
    line('first question');
    await waitFor(() => pane().includes("I'm unable"), 'the first streamed words', 30_000);
    line('/cost');
    await waitFor(() => pane().includes('Session: '), 'the /cost output', 30_000);
    assert.ok(!pane().includes('done in'), 'while the turn was still running');
    line('second question');
    await waitFor(() => pane().includes('a turn is running: press Enter again when it has finished'), 'the notice', 30_000);
    assert.match(pane(), /› second question/);
    assert.equal(server.requests.length, 1, 'the waiting prompt was not sent');
    await waitFor(() => pane().includes('done in'), 'the first answer', 30_000);
    keys('C-u');
    line('/model gpt-4o');
    await waitFor(() => pane().includes('Model switched to openai/gpt-4o'), 'the switch', 30_000);
    line('second question');
    await waitFor(() => (pane().match(/done in/g) ?? []).length === 2, 'the second answer', 30_000);
    line('/exit');
    await waitFor(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '', 'the chat to exit', 30_000);
    assert.equal(readFileSync(exitFile, 'utf8').trim(), '0');

    const lines = readFileSync(cassette, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; request?: { model?: string; messages?: unknown[] } });
    assert.deepEqual(lines.map((l) => l.type), ['cassette', 'stream', 'stream'], 'the call before the switch is still in the cassette');
    assert.deepEqual(lines.slice(1).map((l) => l.request?.model), ['gpt-4o-mini', 'gpt-4o']);
    assert.match(JSON.stringify(lines[2]?.request?.messages), /first question[\s\S]*I'm unable[\s\S]*second question/, 'the conversation continued on the new model');
  });
});
