import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MCPConnectionError } from '../../../lib/core/errors/mcp-connection-error.js';
import { MCPClient } from '../../../lib/mcp/mcp-client.js';
import type { Tool } from '../../../lib/tools/types.js';
import { gate } from '../../support/gate.js';
import { fixtureStdio, processAlive } from '../../support/mcp-servers.js';

describe('MCPClient over stdio: spawning, closing, tool lists, environment', () => {
  test('a command that does not exist: MCPConnectionError naming the command', async () => {
    const client = new MCPClient({ name: 'missing', command: 'agentlib-no-such-command-xyz', args: ['--flag'] });
    await assert.rejects(client.connect(), (error: unknown) => {
      assert.ok(MCPConnectionError.isInstance(error));
      assert.match(error.message, /Cannot start MCP server "missing" \(agentlib-no-such-command-xyz --flag\)/);
      return true;
    });
    await client.close();
  });

  test('a server that exits before the handshake: MCPConnectionError with its stderr', async () => {
    const client = new MCPClient({ name: 'quits', command: process.execPath, args: ['-e', 'process.stderr.write("no config file\\n"); process.exit(4)'] });
    await assert.rejects(client.connect(), (error: unknown) => {
      assert.ok(MCPConnectionError.isInstance(error));
      assert.match(error.message, /Cannot connect to MCP server "quits"/);
      assert.match(error.message, /no config file/);
      return true;
    });
    await client.close();
  });

  test('a server that never answers the handshake: MCPConnectionError after connectTimeoutMs', async () => {
    const client = new MCPClient({ ...fixtureStdio('silent'), env: { FIXTURE_SILENT: '1' } }, { connectTimeoutMs: 200 });
    await assert.rejects(client.connect(), (error: unknown) => {
      assert.ok(MCPConnectionError.isInstance(error));
      assert.match(error.message, /Cannot connect to MCP server "silent"/);
      return true;
    });
    await client.close();
  });

  test('close() ends the whole process group (a child the server started goes too)', async () => {
    const client = new MCPClient(fixtureStdio());
    const serverPid = Number((await client.callTool('pid')).text);
    const grandchild = Number((await client.callTool('grandchild')).text);
    assert.ok(processAlive(grandchild));
    await client.close();
    assert.equal(processAlive(serverPid), false);
    // The signal is delivered at once, the process may take a moment to go.
    const deadline = Date.now() + 5000;
    while (processAlive(grandchild) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(processAlive(grandchild), false, 'the grandchild was killed with the group');
    await assert.rejects(client.callTool('pid'), /is closed/);
  });

  test('tools/list_changed: the listeners get the new tool list', async () => {
    await using client = new MCPClient(fixtureStdio(), { prefix: 'fx' });
    const before = (await client.tools()).map((t) => t.name);
    assert.ok(!before.includes('fx_added'));
    const changed = gate<readonly Tool[]>();
    client.onToolsChanged((tools) => changed.open(tools));
    await client.callTool('add_tool');
    const tools = await changed.opened;
    const added = tools.find((t) => t.name === 'fx_added');
    assert.ok(added, tools.map((t) => t.name).join());
    assert.equal((await client.listTools()).some((t) => t.name === 'added'), true);
    const out = await added.invoke({}, { signal: new AbortController().signal, runId: 'r', callId: 'c', toolName: 'fx_added', context: undefined });
    assert.equal(out.content, 'added works');
  });

  test('the tools filter keeps only matching remote tools', async () => {
    await using client = new MCPClient(fixtureStdio(), { tools: ['p*', 'echo'] });
    assert.deepEqual((await client.tools()).map((t) => t.name).sort(), ['echo', 'pid']);
  });

  test('the server inherits PATH and HOME but not the caller’s secrets', async () => {
    process.env['AGENTLIB_TEST_SECRET_KEY'] = 'sk-should-not-leak';
    try {
      await using client = new MCPClient({ name: 'env', command: process.execPath, args: ['-e', 'process.stderr.write(Object.keys(process.env).join(" "))'], env: { GIVEN: '1' } });
      await assert.rejects(client.connect(), (error: unknown) => {
        const message = (error as Error).message;
        assert.match(message, /\bPATH\b/);
        assert.match(message, /\bGIVEN\b/, 'the env of the config is passed');
        assert.doesNotMatch(message, /AGENTLIB_TEST_SECRET_KEY/);
        return true;
      });
    } finally {
      delete process.env['AGENTLIB_TEST_SECRET_KEY'];
    }
  });
});
