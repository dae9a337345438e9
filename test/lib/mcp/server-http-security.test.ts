import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { MCPServer } from '../../../lib/mcp/mcp-server.js';
import type { RunningMCPHttpServer } from '../../../lib/mcp/mcp-http.js';
import { servedTools, type ServedLog } from './fixtures/served-tools.js';

interface RawAnswer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A request with full control of Host, Origin, body and the local address (fetch cannot set Host). */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: options.method ?? 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...options.headers },
        ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const messageOf = (answer: RawAnswer): string => (JSON.parse(answer.body) as { error: { message: string } }).error.message;

const call = (id: number, name = 'add', args: Record<string, unknown> = { a: 1, b: 2 }): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('MCPServer over HTTP refuses, and runs nothing, when', () => {
  const log: ServedLog = { ran: [], cancelled: [] };
  let running: RunningMCPHttpServer;
  let client: Client;
  let sessionId: string;
  const protocol = { 'mcp-protocol-version': '2025-06-18' };
  before(async () => {
    running = await new MCPServer({ tools: servedTools(log) }).listen({ maxBodyBytes: 4096, maxBatch: 3 });
    client = new Client({ name: 'legit', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(running.url));
    await client.connect(transport);
    sessionId = transport.sessionId ?? '';
    // The session works: the control for every refusal below.
    assert.deepEqual((await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } })).content, [{ type: 'text', text: '2' }]);
    log.ran.length = 0;
  });
  after(async () => {
    await client.close();
    await running.close();
    assert.deepEqual(log.ran, [], 'no refused request ran a tool');
  });

  test('the Host header is not a loopback name (DNS rebinding): 403', async () => {
    const answer = await raw(running.url, { headers: { host: `evil.example:${running.port}`, 'mcp-session-id': sessionId, ...protocol }, body: call(1) });
    assert.equal(answer.status, 403);
    assert.match(messageOf(answer), /Host "evil.example" is not served here/);
  });

  test('the Origin is a foreign site: 403 (its own loopback origin is fine)', async () => {
    const foreign = await raw(running.url, { headers: { origin: 'https://evil.example', 'mcp-session-id': sessionId, ...protocol }, body: call(2) });
    assert.equal(foreign.status, 403);
    assert.match(messageOf(foreign), /Origin "https:\/\/evil.example" is not allowed/);
    const own = await raw(running.url, { headers: { origin: `http://127.0.0.1:${running.port}`, 'mcp-session-id': sessionId, ...protocol }, body: call(3, 'add', { a: 2, b: 2 }) });
    assert.equal(own.status, 200);
    assert.match(own.body, /"text":"4"/);
    log.ran.length = 0;
  });

  test('the body is larger than maxBodyBytes: 413', async () => {
    const answer = await raw(running.url, { headers: { 'mcp-session-id': sessionId, ...protocol }, body: call(4, 'add', { a: 1, b: 2, pad: 'x'.repeat(5000) }) });
    assert.equal(answer.status, 413);
  });

  test('a batch holds more than maxBatch messages: 400', async () => {
    const batch = `[${[5, 6, 7, 8].map((id) => call(id)).join(',')}]`;
    const answer = await raw(running.url, { headers: { 'mcp-session-id': sessionId, ...protocol }, body: batch });
    assert.equal(answer.status, 400);
    assert.match(messageOf(answer), /at most 3 messages; got 4/);
  });

  test('the session id belongs to another client: 404, like an unknown id', async () => {
    const stolen = await raw(running.url, { headers: { 'mcp-session-id': sessionId, ...protocol }, body: call(9), localAddress: '127.0.0.2' });
    assert.equal(stolen.status, 404);
    const guessed = await raw(running.url, { headers: { 'mcp-session-id': 'a'.repeat(43), ...protocol }, body: call(10) });
    assert.equal(guessed.status, 404);
    assert.equal(stolen.body, guessed.body, 'nothing tells a stolen id from an unknown one');
  });

  test('a request without a session that is not initialize: 400', async () => {
    const answer = await raw(running.url, { headers: protocol, body: call(11) });
    assert.equal(answer.status, 400);
  });

  test('session ids are 256 random bits, and every session has its own transport', async () => {
    assert.match(sessionId, /^[A-Za-z0-9_-]{43}$/);
    const other = new StreamableHTTPClientTransport(new URL(running.url));
    const second = new Client({ name: 'second', version: '1' });
    await second.connect(other);
    assert.notEqual(other.sessionId, sessionId);
    assert.equal(running.sessions, 2);
    await second.close();
    await other.terminateSession().catch(() => undefined);
    assert.deepEqual((await client.callTool({ name: 'add', arguments: { a: 3, b: 3 } })).content, [{ type: 'text', text: '6' }], 'the first session is unaffected');
    log.ran.length = 0;
  });
});

describe('MCPServer over HTTP off loopback', () => {
  test('without a bearer token it refuses to start', async () => {
    await assert.rejects(new MCPServer({ tools: servedTools() }).listen({ host: '0.0.0.0' }), (error) => ConfigurationError.isInstance(error) && /needs a bearer token/.test(error.message));
  });

  test('with a token: a request without it, or with a wrong one, is 401 and runs nothing', async () => {
    const log: ServedLog = { ran: [], cancelled: [] };
    const running = await new MCPServer({ tools: servedTools(log) }).listen({ host: '0.0.0.0', authToken: 'tok-123456', allowedHosts: ['127.0.0.1'] });
    const url = `http://127.0.0.1:${running.port}/mcp`;
    try {
      const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
      const missing = await raw(url, { body: init });
      assert.equal(missing.status, 401);
      assert.equal(missing.headers['www-authenticate'], 'Bearer');
      const wrong = await raw(url, { body: init, headers: { authorization: 'Bearer nope' } });
      assert.equal(wrong.status, 401);
      assert.equal(running.sessions, 0);
      const client = new Client({ name: 'ok', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer tok-123456' } } }));
      assert.deepEqual((await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).content, [{ type: 'text', text: '3' }]);
      await client.close();
      assert.deepEqual(log.ran, ['add']);
    } finally {
      await running.close();
    }
  });
});
