// `agentlib chat` asks before it spawns a stdio MCP server (commands/chat/ask-mcp-spawn.ts): the
// built binary in a real terminal (tmux), offline (a cassette answers; the fixture MCP server writes
// its pid to a file when it starts).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadAgent } from '../../lib/config/load-agent.js';
import { agentMcpConnector } from '../../lib/mcp/agent-connector.js';
import { RecordingProvider } from '../../lib/providers/replay/recording-provider.js';
import { ScriptedProvider } from '../../lib/providers/scripted.js';
import { binPath, ensureCliBuilt } from '../support/cli-build.js';
import { FIXTURE_SERVER } from '../support/mcp-servers.js';
import { requires } from '../support/requirements.js';
import { shellQuote, tmuxSession, waitFor } from '../support/tmux.js';

const AGENT = `name: mcp-chat
provider: openai
model: gpt-4o-mini
system_prompt: Echo with the MCP tool.
mcp:
  servers:
    - name: fx
      command: \${NODE}
      args: ["\${FIXTURE}"]
      env: { FIXTURE_STARTED_FILE: "\${STARTED}" }
      tools: [echo]
`;
const QUESTION = 'Echo hello';

describe('agentlib chat asks before spawning a stdio MCP server (tmux)', requires('tmux'), () => {
  let dir: string;
  let file: string;
  let cassette: string;
  let started: string;
  let vars: Record<string, string>;
  const tmux = tmuxSession('agentlib-chat-mcp');
  before(async () => {
    ensureCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'agentlib-chat-mcp-'));
    file = join(dir, 'agent.yaml');
    cassette = join(dir, 'cassette.jsonl');
    started = join(dir, 'started.txt');
    vars = { NODE: process.execPath, FIXTURE: FIXTURE_SERVER, STARTED: started };
    writeFileSync(file, AGENT);
    const connector = agentMcpConnector({ authorize: () => true });
    try {
      const scripted = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'fx_echo', parameters: { text: 'hello from the MCP server' } }] }, 'It echoed.'], defaultModel: 'gpt-4o-mini' });
      const agent = await loadAgent(file, { vars, provider: new RecordingProvider(scripted, { path: cassette, env: {} }), mcpTools: connector.mcpTools });
      assert.equal((await agent.run(QUESTION)).content, 'It echoed.');
    } finally {
      await connector.close();
    }
    rmSync(started); // the recording spawned it; the chat starts from nothing
  });
  after(() => {
    tmux.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  const startChat = (exitFile: string): void => {
    const env = 'env -u CI -u CONTINUOUS_INTEGRATION NO_COLOR=1 OPENAI_API_KEY=sk-test-not-a-real-key OPENAI_BASE_URL=http://127.0.0.1:9/v1';
    const varArgs = Object.entries(vars).map(([k, v]) => `--var ${shellQuote(`${k}=${v}`)}`).join(' ');
    const command = `cd ${shellQuote(dir)} && ${env} ${shellQuote(process.execPath)} ${shellQuote(binPath)} chat ${shellQuote(file)} --replay ${shellQuote(cassette)} --no-trace ${varArgs}; echo $? > ${shellQuote(exitFile)}; sleep 60`;
    tmux.start(command, 200, 50);
  };
  const exited = (exitFile: string): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8').trim() : '');
  const screen = (): string => tmux.pane().replace(/\s*\n\s*/g, ' ');

  test('the full command is shown; answering no: nothing is spawned, nothing remembered, exit 2', async () => {
    const exitFile = join(dir, 'exit-no');
    startChat(exitFile);
    await waitFor(() => tmux.pane().includes('Run these commands?'), 'the spawn question', 30_000);
    assert.ok(screen().includes(`fx: ${process.execPath} ${FIXTURE_SERVER} (env: FIXTURE_STARTED_FILE)`), tmux.pane());
    tmux.sendKeys('n');
    tmux.sendKeys('Enter');
    await waitFor(() => exited(exitFile) !== '', 'the chat to exit', 30_000);
    assert.equal(exited(exitFile), '2', tmux.pane());
    assert.match(screen(), /starts MCP servers that were not approved/);
    assert.equal(existsSync(started), false, 'the server was not spawned');
    assert.equal(existsSync(join(dir, '.agentlib', 'mcp-trust.json')), false);
    tmux.kill();
  });

  test('answering yes: the server is spawned, its tool answers in the chat, and the approval is remembered', async () => {
    const exitFile = join(dir, 'exit-yes');
    startChat(exitFile);
    await waitFor(() => tmux.pane().includes('Run these commands?'), 'the spawn question', 30_000);
    assert.equal(existsSync(started), false, 'nothing runs before the answer');
    tmux.sendKeys('y');
    tmux.sendKeys('Enter');
    await waitFor(() => tmux.pane().includes('Ask something'), 'the input line', 30_000);
    assert.equal(readFileSync(started, 'utf8').trim().split('\n').length, 1, 'one server process started');
    tmux.sendKeys('-l', QUESTION);
    tmux.sendKeys('Enter');
    // The replay matches requests exactly: the second one carries the MCP server's real echo.
    await waitFor(() => tmux.pane().includes('done in') || tmux.pane().includes('error in'), 'the answer', 30_000);
    assert.match(screen(), /It echoed\./);
    assert.ok(existsSync(join(dir, '.agentlib', 'mcp-trust.json')), 'the approval is remembered for the project');
    tmux.sendKeys('-l', '/exit');
    tmux.sendKeys('Enter');
    await waitFor(() => exited(exitFile) !== '', 'the chat to exit', 30_000);
    assert.equal(exited(exitFile), '0', tmux.pane());
    tmux.kill();
  });
});
