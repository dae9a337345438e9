import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { MCPConnectionError } from '../../../lib/core/errors/mcp-connection-error.js';
import { mcpTools } from '../../../lib/mcp/mcp-tools.js';
import { MCPClient } from '../../../lib/mcp/mcp-client.js';
import { syncAgentTools } from '../../../lib/mcp/sync-agent-tools.js';
import { gate } from '../../support/gate.js';
import { MultiMCPClient } from '../../../lib/mcp/multi-mcp-client.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { Role } from '../../../lib/core/role.js';
import { eventLog } from '../../support/agent-harness.js';
import { everythingStdio, fixtureStdio } from '../../support/mcp-servers.js';

test('an agent run: an MCP server crashes mid-call, the error is fed back, the run goes on and the client reconnects', async () => {
  await using mcp = await mcpTools([fixtureStdio('fx')]);
  const provider = new ScriptedProvider({
    replies: [{ toolCalls: [{ toolName: 'fx_crash', parameters: {} }] }, { toolCalls: [{ toolName: 'fx_echo', parameters: { text: 'back again' } }] }, 'The server recovered.'],
  });
  const log = eventLog();
  const agent = new Agent({ provider, tools: mcp.tools, observers: [log.observer] });
  const result = await agent.run('crash it, then echo');
  assert.equal(result.status, 'completed');
  assert.equal(result.content, 'The server recovered.');
  const errors = log.of('tool-error');
  assert.equal(errors.length, 1);
  assert.equal(errors[0]?.toolName, 'fx_crash');
  assert.equal(errors[0]?.error.name, 'ToolExecutionError');
  const toolMessages = provider.requests[2]?.messages.filter((m) => m.role === Role.TOOL) ?? [];
  assert.match(toolMessages[0]?.content ?? '', /closed the connection during tool call "crash".*exited with code 3/s);
  assert.equal(toolMessages[1]?.content, 'back again');
});

test('MultiMCPClient: prefixes keep two servers apart; a failing server is reported and left out', async () => {
  await using multi = new MultiMCPClient([everythingStdio('a'), everythingStdio('b'), { name: 'broken', command: 'agentlib-no-such-command-xyz' }]);
  const tools = await multi.tools();
  const names = tools.map((t) => t.name);
  assert.ok(names.includes('a_echo') && names.includes('b_echo'), names.join());
  assert.ok(!names.some((n) => n.startsWith('broken_')));
  assert.equal(multi.failed.length, 1);
  assert.equal(multi.failed[0]?.server, 'broken');
  assert.ok(MCPConnectionError.isInstance(multi.failed[0]?.error));
  assert.equal((await multi.callTool('b', 'echo', { message: 'x' })).text, 'Echo: x');
  await assert.rejects(multi.callTool('c', 'echo'), /No MCP server named "c" \(servers: a, b, broken\)/);
});

test('MultiMCPClient refuses two servers with the same name, and a server without one', () => {
  assert.throws(() => new MultiMCPClient([fixtureStdio('x'), fixtureStdio('x')]), /Two MCP servers are named "x"/);
  assert.throws(() => new MultiMCPClient([{ command: 'node' } as never]), /needs a name/);
});

test('mcpTools with requireAll: a failing server fails the whole set (and the others are closed)', async () => {
  await assert.rejects(mcpTools([fixtureStdio('ok'), { name: 'broken', command: 'agentlib-no-such-command-xyz' }], { requireAll: true }), (error) => MCPConnectionError.isInstance(error));
});

test('syncAgentTools: a tool the server adds at run time (tools/list_changed) joins the agent', async () => {
  await using client = new MCPClient(fixtureStdio(), { prefix: 'fx' });
  const tools = await client.tools();
  const agent = new Agent({ provider: new ScriptedProvider({ replies: [] }), tools });
  const stop = syncAgentTools(agent, client, tools);
  const synced = gate();
  client.onToolsChanged(() => synced.open());
  await client.callTool('add_tool');
  await synced.opened;
  assert.ok(agent.tools.some((t) => t.name === 'fx_added'), agent.tools.map((t) => t.name).join());
  assert.equal(agent.tools.length, tools.length + 1);
  stop();
});
