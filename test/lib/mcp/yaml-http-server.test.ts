import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadAgent } from '../../../lib/config/load-agent.js';
import { agentMcpConnector } from '../../../lib/mcp/agent-connector.js';
import { MCPServer } from '../../../lib/mcp/mcp-server.js';
import type { FailedServer } from '../../../lib/mcp/multi-mcp-client.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { Role } from '../../../lib/core/role.js';
import { tool } from '../../../lib/tools/tool.js';

// An agent file's HTTP MCP server: the URL and the Authorization header come from ${VAR}s of the
// environment; agentlib's MCPServer requires the bearer token, so the call proves the header was sent.
const AGENT = `name: remote-tools
provider: openai
model: gpt-4o-mini
mcp:
  servers:
    - name: remote
      transport: http
      url: \${MCP_URL}
      headers: { Authorization: "Bearer \${MCP_TOKEN}" }
`;

test('agent YAML: an HTTP server with ${VAR} in url and headers (a bearer token the server requires); a wrong token leaves its tools out and is reported', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentlib-mcp-yaml-http-'));
  const file = join(dir, 'agent.yaml');
  writeFileSync(file, AGENT);
  const secret = 'tok-0123456789abcdef';
  const greet = tool({ name: 'greet', description: 'Greets someone by name', parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }, execute: (args: Record<string, unknown>) => `hello ${String(args['name'])}` });
  const running = await new MCPServer({ tools: [greet] }).listen({ authToken: secret });
  const connector = agentMcpConnector({ authorize: () => assert.fail('an HTTP server needs no spawn approval') });
  try {
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'remote_greet', parameters: { name: 'Ada' } }] }, 'Greeted.'] });
    const agent = await loadAgent(file, { env: { MCP_URL: running.url, MCP_TOKEN: secret }, provider, mcpTools: connector.mcpTools });
    assert.equal((await agent.run('greet Ada')).status, 'completed');
    assert.equal(provider.requests[1]?.messages.find((m) => m.role === Role.TOOL)?.content, 'hello Ada');

    const failed: FailedServer[] = [];
    const wrong = agentMcpConnector({ authorize: () => true, onFailed: (f) => failed.push(...f) });
    try {
      const other = new ScriptedProvider({ replies: ['no tools'] });
      const without = await loadAgent(file, { env: { MCP_URL: running.url, MCP_TOKEN: 'not-the-token' }, provider: other, mcpTools: wrong.mcpTools });
      assert.deepEqual(without.tools.map((t) => t.name), []);
      assert.equal(failed[0]?.server, 'remote');
      assert.match(failed[0]?.error.message ?? '', /401/);
    } finally {
      await wrong.close();
    }
  } finally {
    await connector.close();
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
