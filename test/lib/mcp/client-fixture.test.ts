import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { MCPConnectionError } from '../../../lib/core/errors/mcp-connection-error.js';
import { MCPError } from '../../../lib/core/errors/mcp-error.js';
import { MCPToolError } from '../../../lib/core/errors/mcp-tool-error.js';
import { MCPClient } from '../../../lib/mcp/mcp-client.js';
import { fixtureStdio, processAlive } from '../../support/mcp-servers.js';

describe('MCPClient over stdio: failures, reconnection, cancellation, list changes', () => {
  test('a server that crashes mid-call: MCPConnectionError with its stderr and exit code; the next call reconnects', async () => {
    await using client = new MCPClient(fixtureStdio());
    const firstPid = Number((await client.callTool('pid')).text);
    await assert.rejects(client.callTool('crash'), (error: unknown) => {
      assert.ok(MCPConnectionError.isInstance(error), String(error));
      assert.equal(error.server, 'fixture');
      assert.match(error.message, /closed the connection during tool call "crash"/);
      assert.match(error.message, /exited with code 3/);
      assert.match(error.message, /boom: crashing on purpose/);
      return true;
    });
    assert.equal(client.connected, false);
    const secondPid = Number((await client.callTool('pid')).text);
    assert.notEqual(secondPid, firstPid, 'a new server process');
    assert.equal(processAlive(firstPid), false);
  });

  test('reconnection backs off between failed attempts, then gives up with MCPConnectionError; it works again once the server can start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-reconnect-'));
    const failFile = join(dir, 'fail');
    const sleeps: number[] = [];
    const config = { ...fixtureStdio(), env: { FIXTURE_FAIL_FILE: failFile } };
    await using client = new MCPClient(config, { reconnect: { attempts: 3, initialDelayMs: 100, maxDelayMs: 150 }, sleep: async (ms) => void sleeps.push(ms) });
    try {
      await client.connect();
      writeFileSync(failFile, '');
      await assert.rejects(client.callTool('crash'), (error) => MCPConnectionError.isInstance(error));
      await assert.rejects(client.callTool('pid'), (error: unknown) => {
        assert.ok(MCPConnectionError.isInstance(error));
        assert.match(error.message, /refusing to start/);
        return true;
      });
      assert.deepEqual(sleeps, [100, 150], 'waits doubled, capped at maxDelayMs');
      rmSync(failFile);
      assert.match((await client.callTool('pid')).text, /^\d+$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('reconnect: false leaves the client disconnected after a drop', async () => {
    await using client = new MCPClient(fixtureStdio(), { reconnect: false });
    await assert.rejects(client.callTool('crash'), (error) => MCPConnectionError.isInstance(error));
    await assert.rejects(client.callTool('pid'), /reconnection is off/);
  });

  test('cancelling a call sends notifications/cancelled: the server sees its request aborted', async () => {
    await using client = new MCPClient(fixtureStdio());
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal });
    // The call is in flight once the server has answered a later request on the same ordered stream.
    await client.callTool('pid');
    controller.abort(new Error('user pressed Ctrl-C'));
    await assert.rejects(call, /user pressed Ctrl-C/);
    assert.equal((await client.callTool('cancellations')).text, '1');
  });

  test('a per-call timeout fails with MCPError and cancels the request on the server', async () => {
    await using client = new MCPClient(fixtureStdio(), { callTimeoutMs: 60_000 });
    await assert.rejects(client.callTool('slow', {}, { timeoutMs: 50 }), (error: unknown) => {
      assert.ok(MCPError.isInstance(error) && !MCPConnectionError.isInstance(error) && !MCPToolError.isInstance(error));
      assert.match(error.message, /did not answer tool call "slow" within 50 ms/);
      return true;
    });
    assert.equal((await client.callTool('cancellations')).text, '1');
  });
});
