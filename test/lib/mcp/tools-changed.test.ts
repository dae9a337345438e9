import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { agentMcpConnector } from '../../../lib/mcp/agent-connector.js';
import { toolListHolder, type ToolsChange } from '../../../lib/mcp/sync-agent-tools.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { Role } from '../../../lib/core/role.js';
import type { Tool } from '../../../lib/tools/types.js';
import { EVERYTHING, FIXTURE_SERVER } from '../../support/mcp-servers.js';

const fixture = { name: 'fx', transport: 'stdio' as const, command: process.execPath, args: [FIXTURE_SERVER] };
const everything = { name: 'everything', transport: 'stdio' as const, command: process.execPath, args: [EVERYTHING, 'stdio'], tools: ['echo'] };

test('an agent from a file followed by the connector: a server adding and removing tools mid-run changes the agent\'s tools before its next model call', async () => {
  const connector = agentMcpConnector({ authorize: () => true });
  try {
    const tools = await connector.mcpTools([fixture, everything], { source: 'agent.yaml', baseDir: process.cwd() });
    const provider = new ScriptedProvider({
      replies: [
        { toolCalls: [{ toolName: 'fx_add_tool', parameters: {} }] },
        { toolCalls: [{ toolName: 'fx_added', parameters: {} }, { toolName: 'fx_remove_echo', parameters: {} }] },
        'Done.',
      ],
    });
    const agent = new Agent({ provider, tools });
    const changes: ToolsChange[] = [];
    connector.follow(agent, (change) => changes.push(change));
    const result = await agent.run('add a tool, use it, drop echo');
    assert.equal(result.status, 'completed');
    const offered = provider.requests.map((r) => (r.tools ?? []).map((t) => t.name));
    assert.ok(!offered[0]?.includes('fx_added'));
    assert.ok(offered[1]?.includes('fx_added'), 'the second model call offers the tool the server added');
    assert.ok(offered[1]?.includes('fx_echo'));
    assert.ok(!offered[2]?.includes('fx_echo'), 'the third one no longer offers the tool the server removed');
    assert.ok(offered[2]?.includes('everything_echo'), 'the other server\'s tools are untouched');
    const results = provider.requests[2]?.messages.filter((m) => m.role === Role.TOOL).map((m) => m.content);
    assert.deepEqual(results?.slice(-2), ['added works', 'echo removed']);
    assert.deepEqual(changes, [
      { added: ['fx_added'], removed: [] },
      { added: [], removed: ['fx_echo'] },
    ]);
  } finally {
    await connector.close();
  }
});

test('toolListHolder: an AgentConfig tool list (agentlib serve) follows, so the next Agent built from it has the new tools', async () => {
  const connector = agentMcpConnector({ authorize: () => true });
  try {
    const list: Tool[] = [...(await connector.mcpTools([fixture], { source: 'agent.yaml', baseDir: process.cwd() }))];
    connector.follow(toolListHolder(list));
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'fx_add_tool', parameters: {} }] }, 'ok', { toolCalls: [{ toolName: 'fx_added', parameters: {} }] }, 'used it'] });
    const first = new Agent({ provider, tools: list });
    assert.equal((await first.run('add')).status, 'completed');
    assert.ok(list.some((t) => t.name === 'fx_added'));
    const second = new Agent({ provider, tools: list });
    assert.equal((await second.run('use')).content, 'used it');
    assert.equal(provider.requests[3]?.messages.find((m) => m.role === Role.TOOL)?.content, 'added works');
  } finally {
    await connector.close();
  }
});
