import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { McpServerSettings } from '../../../lib/config/types.js';
import { cliMcpConnections } from '../../../commands/run/mcp-connections.js';
import type { PendingSpawn } from '../../../lib/mcp/agent-connector.js';
import { memoryIO } from '../../support/cli-io.js';
import { FIXTURE_SERVER } from '../../support/mcp-servers.js';

const servers: McpServerSettings[] = [
  { name: 'fx', transport: 'stdio', command: process.execPath, args: [FIXTURE_SERVER], tools: ['pid'] },
  { name: 'gone', transport: 'stdio', command: 'agentlib-no-such-command-xyz' },
];

test('chat asks once before spawning, shows every command, remembers a yes for the project; failing servers are reported and left out', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-trust-'));
  const io = memoryIO();
  const asked: string[][] = [];
  const ask = async (spawns: readonly PendingSpawn[]): Promise<boolean> => {
    asked.push(spawns.map((s) => s.description));
    return true;
  };
  try {
    const first = cliMcpConnections(io, { trust: false, cwd: dir, ask });
    const tools = await first.mcpTools(servers, { source: 'agent.yaml', baseDir: dir });
    await first.close();
    assert.deepEqual(tools.map((t) => t.name), ['fx_pid']);
    assert.deepEqual(asked, [[`${process.execPath} ${FIXTURE_SERVER}`, 'agentlib-no-such-command-xyz']]);
    assert.match(io.err(), /warning: MCP server "gone" is unavailable, its tools are left out: Cannot start MCP server "gone"/);
    // A second chat in the same project: nothing to ask.
    const second = cliMcpConnections(memoryIO(), { trust: false, cwd: dir, ask });
    assert.equal((await second.mcpTools(servers, { source: 'agent.yaml', baseDir: dir })).length, 1);
    await second.close();
    assert.equal(asked.length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a no spawns nothing and is not remembered; without a way to ask (run) an unapproved command is refused', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-trust-'));
  try {
    const no = cliMcpConnections(memoryIO(), { trust: false, cwd: dir, ask: async () => false });
    await assert.rejects(no.mcpTools(servers, { source: 'agent.yaml', baseDir: dir }), /agent.yaml starts MCP servers that were not approved:\n {2}fx: /);
    const run = cliMcpConnections(memoryIO(), { trust: false, cwd: dir });
    await assert.rejects(run.mcpTools(servers, { source: 'agent.yaml', baseDir: dir }), /--trust-mcp/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
