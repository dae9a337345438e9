import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadAgent } from '../../lib/config/load-agent.js';
import { agentMcpConnector } from '../../lib/mcp/agent-connector.js';
import { McpTrustStore, serverEntries } from '../../lib/mcp/configured-servers.js';
import { loadAgentConfig } from '../../lib/config/parse-agent-config.js';
import { RecordingProvider } from '../../lib/providers/replay/recording-provider.js';
import { ScriptedProvider } from '../../lib/providers/scripted.js';
import { ensureCliBuilt } from '../support/cli-build.js';
import { EVERYTHING } from '../support/mcp-servers.js';
import { agentlib, cliEnv } from './run-helpers.js';

const AGENT = `name: mcp-agent
provider: openai
model: gpt-4o-mini
system_prompt: Use the tools of the MCP server for arithmetic.
mcp:
  servers:
    - name: everything
      command: \${NODE}
      args: ["\${EVERYTHING}", stdio]
      tools: [get-sum, echo]
`;
const QUESTION = 'What is 2 + 3?';
const vars = { NODE: process.execPath, EVERYTHING };
const varArgs = Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}=${v}`]);

describe('agentlib run with an agent that uses MCP tools (built binary, cassette)', () => {
  let dir: string;
  let file: string;
  let cassette: string;
  before(async () => {
    ensureCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'agentlib-mcp-run-'));
    file = join(dir, 'agent.yaml');
    cassette = join(dir, 'cassette.jsonl');
    writeFileSync(file, AGENT);
    // The cassette: a scripted model calling the prefixed MCP tool, recorded through the same loader.
    const connector = agentMcpConnector({ authorize: () => true });
    try {
      const scripted = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'everything_get_sum', parameters: { a: 2, b: 3 } }] }, 'The sum is 5.'], defaultModel: 'gpt-4o-mini' });
      const agent = await loadAgent(file, { vars, provider: new RecordingProvider(scripted, { path: cassette, env: {} }), mcpTools: connector.mcpTools });
      assert.equal((await agent.run(QUESTION)).content, 'The sum is 5.');
    } finally {
      await connector.close();
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('with --trust-mcp: the server is spawned, the model sees everything_get_sum, the tool result matches the recording', async () => {
    const recorded = readFileSync(cassette, 'utf8');
    assert.match(recorded, /"name":"everything_get_sum"/);
    assert.match(recorded, /The sum of 2 and 3 is 5/);
    const run = await agentlib(['run', file, QUESTION, '--replay', cassette, '--trust-mcp', '--no-trace', '-o', 'json', ...varArgs], { cwd: dir, env: cliEnv(undefined) });
    assert.equal(run.exitCode, 0, run.stderr);
    const doc = JSON.parse(run.stdout) as { status: string; content: string; toolCalls: { toolName: string; parameters: unknown }[] };
    assert.equal(doc.status, 'completed');
    assert.equal(doc.content, 'The sum is 5.');
    // The replay matches requests exactly: the second one carries the MCP server's real answer.
    assert.deepEqual(doc.toolCalls.map((c) => [c.toolName, c.parameters]), [['everything_get_sum', { a: 2, b: 3 }]]);
  });

  test('without --trust-mcp: exit 2 and the full command shown, no provider call, nothing spawned', async () => {
    const run = await agentlib(['run', file, QUESTION, '--replay', cassette, '--no-trace', ...varArgs], { cwd: dir, env: cliEnv(undefined) });
    assert.equal(run.exitCode, 2, run.stderr);
    assert.ok(run.stderr.includes(`everything: ${process.execPath} ${EVERYTHING} stdio`), run.stderr);
    assert.match(run.stderr, /--trust-mcp/);
    assert.equal(run.stdout, '');
  });

  test('a command approved in this project before (chat remembers it) runs without the flag; an edited one asks again', async () => {
    const config = await loadAgentConfig(file, { vars });
    const [entry] = serverEntries(config.mcp?.servers ?? [], config.baseDir);
    assert.ok(entry);
    new McpTrustStore(dir).trust(entry);
    const run = await agentlib(['run', file, QUESTION, '--replay', cassette, '--no-trace', ...varArgs], { cwd: dir, env: cliEnv(undefined) });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.match(run.stdout, /The sum is 5\./);
    writeFileSync(file, AGENT.replace('stdio]', 'stdio, --extra]'));
    const edited = await agentlib(['run', file, QUESTION, '--replay', cassette, '--no-trace', ...varArgs], { cwd: dir, env: cliEnv(undefined) });
    assert.equal(edited.exitCode, 2, edited.stderr);
    writeFileSync(file, AGENT);
  });
});
