import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { MCPServer } from '../../../lib/mcp/mcp-server.js';
import type { RunningMCPHttpServer } from '../../../lib/mcp/mcp-http.js';
import { ToolPolicy } from '../../../lib/safety/tool-policy.js';
import { gate } from '../../support/gate.js';
import { servedTools, type ServedLog } from './fixtures/served-tools.js';

const STDIO_SERVED = fileURLToPath(new URL('./fixtures/stdio-served.ts', import.meta.url));

// The official SDK client (what the MCP Inspector CLI is built on) against agentlib's MCPServer.
const transports: { name: string; open: () => Promise<{ transport: Transport; log?: ServedLog; waiting?: Promise<void>; stop: () => Promise<void> }> }[] = [
  {
    name: 'stdio',
    open: async () => {
      const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', STDIO_SERVED], stderr: 'pipe' });
      return { transport, stop: async () => undefined };
    },
  },
  {
    name: 'Streamable HTTP',
    open: async () => {
      const log: ServedLog = { ran: [], cancelled: [] };
      const started = gate();
      const server = new MCPServer({ name: 'served', tools: servedTools(log, () => started.open()), policy: new ToolPolicy({ deny: ['drop_*'], default: 'allow' }) });
      const running: RunningMCPHttpServer = await server.listen();
      return { transport: new StreamableHTTPClientTransport(new URL(running.url)), log, waiting: started.opened, stop: () => running.close() };
    },
  },
];

for (const kind of transports) {
  describe(`the official SDK client ↔ agentlib MCPServer over ${kind.name}`, () => {
    const client = new Client({ name: 'sdk-test-client', version: '1.0.0' });
    let opened: Awaited<ReturnType<(typeof kind)['open']>>;
    before(async () => {
      opened = await kind.open();
      await client.connect(opened.transport);
    });
    after(async () => {
      await client.close();
      await opened.stop();
    });

    test('lists the tools with their JSON Schemas', async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ['add', 'remove_file', 'drop_database', 'wait', 'broken']);
      const add = tools[0];
      assert.equal(add?.description, 'Adds two numbers together');
      assert.deepEqual(add?.inputSchema.required, ['a', 'b']);
      assert.equal(client.getServerVersion()?.name, 'served');
    });

    test('calls a tool', async () => {
      const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
      assert.deepEqual(result.content, [{ type: 'text', text: '42' }]);
      assert.equal(result.isError, undefined);
    });

    test('invalid arguments, a failing tool: error results the client can read', async () => {
      const invalid = await client.callTool({ name: 'add', arguments: { a: 'two' } });
      assert.equal(invalid.isError, true);
      assert.match(JSON.stringify(invalid.content), /Invalid arguments for tool \\"add\\"/);
      const broken = await client.callTool({ name: 'broken', arguments: {} });
      assert.equal(broken.isError, true);
      assert.match(JSON.stringify(broken.content), /the disk is on fire/);
    });

    test('an unknown tool is a JSON-RPC error (InvalidParams)', async () => {
      await assert.rejects(client.callTool({ name: 'nope', arguments: {} }), /-32602.*Unknown tool "nope"/);
    });

    test('the tool policy applies: a denied tool and a review-gated tool without an approver do not run', async () => {
      const denied = await client.callTool({ name: 'drop_database', arguments: {} });
      assert.equal(denied.isError, true);
      assert.match(JSON.stringify(denied.content), /denied by policy/);
      const review = await client.callTool({ name: 'remove_file', arguments: { path: '/etc/passwd' } });
      assert.equal(review.isError, true);
      assert.match(JSON.stringify(review.content), /needs approval .* no approver/);
      if (opened.log) assert.deepEqual(opened.log.ran.filter((r) => r !== 'add'), []);
    });

    // (The stdio server runs in another process; over HTTP the test sees the tool's own signal.)
    if (kind.name !== 'stdio') test('a cancelled call aborts the tool on the server', async () => {
      const controller = new AbortController();
      const call = client.callTool({ name: 'wait', arguments: {} }, undefined, { signal: controller.signal });
      await opened.waiting;
      controller.abort(new Error('enough'));
      await assert.rejects(call, /enough/);
      const { log } = opened;
      assert.ok(log);
      // The notification travels over HTTP: the next request on the session is handled after it.
      await client.listTools();
      assert.deepEqual(log.cancelled, ['wait']);
    });
  });
}

test('review-gated calls over MCP go to the approver, which sees the validated arguments', async () => {
  const log: ServedLog = { ran: [], cancelled: [] };
  const asked: unknown[] = [];
  const server = new MCPServer({
    tools: servedTools(log),
    approve: (request) => {
      asked.push({ tool: request.toolName, args: request.args });
      return request.args['path'] === 'tmp.txt';
    },
  });
  const running = await server.listen();
  const client = new Client({ name: 't', version: '1' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    const ok = await client.callTool({ name: 'remove_file', arguments: { path: 'tmp.txt' } });
    assert.deepEqual(ok.content, [{ type: 'text', text: 'removed tmp.txt' }]);
    const no = await client.callTool({ name: 'remove_file', arguments: { path: 'home' } });
    assert.equal(no.isError, true);
    assert.match(JSON.stringify(no.content), /the approver denied it/);
    assert.deepEqual(asked, [
      { tool: 'remove_file', args: { path: 'tmp.txt' } },
      { tool: 'remove_file', args: { path: 'home' } },
    ]);
    assert.deepEqual(log.ran, ['remove_file:tmp.txt']);
  } finally {
    await client.close();
    await running.close();
  }
});
