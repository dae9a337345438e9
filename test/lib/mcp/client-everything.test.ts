import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MCPClient } from '../../../lib/mcp/mcp-client.js';
import { MCPToolError } from '../../../lib/core/errors/mcp-tool-error.js';
import { sanitizeToolParameters } from '../../../lib/providers/gemini/sanitize-schema.js';
import { everythingStdio, startEverythingHttp, type RunningEverything } from '../../support/mcp-servers.js';

// Interop with @modelcontextprotocol/server-everything (the reference server, from npm) over each
// transport: list, call, an error result, image content, a long call cancelled.
const transports: { name: string; open: () => Promise<{ client: MCPClient; stop: () => Promise<void> }> }[] = [
  {
    name: 'stdio',
    open: async () => {
      const client = new MCPClient(everythingStdio());
      return { client, stop: () => client.close() };
    },
  },
  {
    name: 'Streamable HTTP',
    open: async () => {
      const server = await startEverythingHttp('streamableHttp');
      const client = new MCPClient({ name: 'everything', url: server.url });
      return { client, stop: async () => (await client.close(), await server.close()) };
    },
  },
];

for (const transport of transports) {
  describe(`MCPClient ↔ server-everything over ${transport.name}`, () => {
    let client: MCPClient;
    let stop: () => Promise<void>;
    before(async () => ({ client, stop } = await transport.open()));
    after(() => stop());

    test('lists the tools as agentlib tools: names made identifiers, schemas mapped, usable by Gemini', async () => {
      const tools = await client.tools();
      const names = tools.map((t) => t.name);
      assert.ok(names.includes('echo') && names.includes('get_sum') && names.includes('get_tiny_image'), names.join());
      assert.equal(client.protocol, transport.name === 'stdio' ? 'stdio' : 'streamable-http');
      const sum = tools.find((t) => t.name === 'get_sum');
      assert.deepEqual(sum?.parameters['required'], ['a', 'b']);
      assert.equal((sum?.parameters['properties'] as Record<string, { type: string }>)['a']?.type, 'number');
      for (const tool of tools) {
        assert.equal('$schema' in tool.parameters, false, tool.name);
        const gemini = sanitizeToolParameters(tool.parameters);
        const declared = Object.keys(tool.parameters['properties'] as object).length;
        // Gemini gets no parameters for a tool without any, else an object schema of the same properties.
        if (declared === 0) assert.equal(gemini, undefined, tool.name);
        else assert.deepEqual(Object.keys(gemini?.['properties'] as object), Object.keys(tool.parameters['properties'] as object), tool.name);
      }
      assert.equal(client.serverInfo?.name, 'mcp-servers/everything');
    });

    test('calls a tool through the agentlib tool (arguments validated and coerced first)', async () => {
      const sum = (await client.tools()).find((t) => t.name === 'get_sum');
      assert.ok(sum);
      const validated = await sum.validateArgs({ a: '2', b: 3 });
      assert.ok(validated.ok);
      const out = await sum.invoke(validated.value, { signal: new AbortController().signal, runId: 'r', callId: 'c', toolName: 'get_sum', context: undefined });
      assert.match(out.content, /2 \+ 3 = 5|is 5/);
    });

    test('several calls at once each get their own answer', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => client.callTool('echo', { message: `m${i}` })));
      assert.deepEqual(
        results.map((r) => r.text),
        Array.from({ length: 8 }, (_, i) => `Echo: m${i}`),
      );
    });

    test("the server's error result is an MCPToolError naming the tool", async () => {
      await assert.rejects(client.callTool('get-sum', { a: 'x' }), (error: unknown) => {
        assert.ok(MCPToolError.isInstance(error));
        assert.equal(error.toolName, 'get-sum');
        assert.equal(error.server, 'everything');
        assert.match(error.message, /Invalid arguments|expected number/);
        return true;
      });
    });

    test('image content: described in the text, the data kept in media', async () => {
      const result = await client.callTool('get-tiny-image', {});
      assert.match(result.text, /\[image image\/png, \d+ bytes\]/);
      assert.equal(result.media.length, 1);
      assert.equal(result.media[0]?.mimeType, 'image/png');
      assert.ok(Buffer.from(result.media[0]?.data ?? '', 'base64').subarray(1, 4).toString() === 'PNG');
    });

    test('an embedded resource is mapped to its URI and text', async () => {
      const result = await client.callTool('get-resource-reference', { resourceType: 'Text', resourceId: 1 });
      assert.match(result.text, /\[resource demo:\/\/resource\/static\/document\/\S+|\[resource \S+/);
    });

    test('a long-running call is cancelled by its signal, and the connection stays usable', async () => {
      const controller = new AbortController();
      const reason = new Error('stop now');
      const call = client.callTool('trigger-long-running-operation', { duration: 30, steps: 30 }, { signal: controller.signal });
      controller.abort(reason);
      await assert.rejects(call, (error) => error === reason);
      assert.equal((await client.callTool('echo', { message: 'still here' })).text, 'Echo: still here');
    });
  });
}

test('an old HTTP+SSE server: the client falls back from Streamable HTTP to SSE', async () => {
  const server: RunningEverything = await startEverythingHttp('sse');
  const client = new MCPClient({ name: 'old', url: server.url });
  try {
    assert.equal((await client.callTool('echo', { message: 'over sse' })).text, 'Echo: over sse');
    assert.equal(client.protocol, 'sse');
  } finally {
    await client.close();
    await server.close();
  }
});
