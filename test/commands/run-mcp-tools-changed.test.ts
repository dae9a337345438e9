import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadAgent } from '../../lib/config/load-agent.js';
import { agentMcpConnector } from '../../lib/mcp/agent-connector.js';
import { RecordingProvider } from '../../lib/providers/replay/recording-provider.js';
import { ScriptedProvider } from '../../lib/providers/scripted.js';
import { ensureCliBuilt } from '../support/cli-build.js';
import { FIXTURE_SERVER } from '../support/mcp-servers.js';
import { agentlib, cliEnv } from './run-helpers.js';

// The fixture server (the official SDK's McpServer) registers the tool "added" when add_tool is
// called and announces notifications/tools/list_changed.
const AGENT = `name: changing
provider: openai
model: gpt-4o-mini
system_prompt: Add the tool, then use it.
mcp:
  servers:
    - name: fx
      command: \${NODE}
      args: ["\${FIXTURE}"]
      tools: [add_tool, added, echo]
`;
const QUESTION = 'Add the tool and call it.';
const vars = { NODE: process.execPath, FIXTURE: FIXTURE_SERVER };
const varArgs = Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}=${v}`]);

describe('agentlib run: an MCP server that changes its tools mid-run (built binary, cassette)', () => {
  let dir: string;
  let file: string;
  let cassette: string;
  before(async () => {
    ensureCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'agentlib-mcp-changed-'));
    file = join(dir, 'agent.yaml');
    cassette = join(dir, 'cassette.jsonl');
    writeFileSync(file, AGENT);
    const connector = agentMcpConnector({ authorize: () => true });
    try {
      const scripted = new ScriptedProvider({
        replies: [{ toolCalls: [{ toolName: 'fx_add_tool', parameters: {} }] }, { toolCalls: [{ toolName: 'fx_added', parameters: {} }] }, 'The new tool works.'],
        defaultModel: 'gpt-4o-mini',
      });
      const agent = await loadAgent(file, { vars, provider: new RecordingProvider(scripted, { path: cassette, env: {} }), mcpTools: connector.mcpTools });
      connector.follow(agent);
      assert.equal((await agent.run(QUESTION)).content, 'The new tool works.');
    } finally {
      await connector.close();
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('the second model call offers fx_added, the call reaches the server, and the change is reported on stderr', async () => {
    // The cassette: the first request offers two tools, the second three (replay matches requests exactly).
    const requests = readFileSync(cassette, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { request?: { tools?: { name: string }[] } }).filter((r) => r.request !== undefined);
    assert.deepEqual(requests.map((r) => (r.request?.tools ?? []).map((t) => t.name).sort()), [
      ['fx_add_tool', 'fx_echo'],
      ['fx_add_tool', 'fx_added', 'fx_echo'],
      ['fx_add_tool', 'fx_added', 'fx_echo'],
    ]);
    const run = await agentlib(['run', file, QUESTION, '--replay', cassette, '--trust-mcp', '--no-trace', '-o', 'json', ...varArgs], { cwd: dir, env: cliEnv(undefined) });
    assert.equal(run.exitCode, 0, run.stderr);
    const doc = JSON.parse(run.stdout) as { status: string; content: string; toolCalls: { toolName: string }[] };
    assert.equal(doc.status, 'completed');
    assert.equal(doc.content, 'The new tool works.');
    assert.deepEqual(doc.toolCalls.map((c) => c.toolName), ['fx_add_tool', 'fx_added']);
    assert.match(run.stderr, /MCP tools changed: added fx_added/);
  });
});
