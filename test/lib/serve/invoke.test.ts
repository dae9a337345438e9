import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { InMemorySessionStore, type SessionStore } from '../../../lib/serve/index.js';
import { gate } from '../../support/gate.js';
import { lookupTool, post, refundTool, scriptedAgent, serve, type ErrorBody } from './helpers.js';

interface InvokeBody {
  content: string;
  tool_calls: { tool_name: string; parameters: Record<string, unknown> }[];
  iterations: number;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; cost_usd: number };
  run_id: string;
  status: string;
  session_id?: string;
  parsed?: unknown;
  metadata?: unknown;
}

async function json<T>(response: Response): Promise<T> {
  assert.match(response.headers.get('content-type') ?? '', /application\/json/);
  return (await response.json()) as T;
}

async function expectError(response: Response | Promise<Response>, status: number, type: string, message?: RegExp): Promise<ErrorBody> {
  const res = await response;
  const body = await json<ErrorBody>(res);
  assert.equal(res.status, status, JSON.stringify(body));
  assert.equal(body.error.type, type);
  assert.equal(typeof body.error.message, 'string');
  if (message) assert.match(body.error.message, message);
  return body;
}

describe('POST /invoke', () => {
  test('200: the REFERENCE shape with content, tool calls, iterations, usage with cost, run id', async () => {
    const calls: string[] = [];
    const served = serve(
      scriptedAgent(
        { replies: [{ toolCalls: [{ toolName: 'lookup_order', parameters: { orderId: '42' } }], usage: { promptTokens: 100, completionTokens: 10 } }, { text: 'Order 42 has shipped.', usage: { promptTokens: 120, completionTokens: 8 } }] },
        { tools: [lookupTool(calls)], model: 'gpt-4o-mini' },
      ),
    );
    const res = await post(served, '/invoke', { prompt: 'Where is order 42?' });
    assert.equal(res.status, 200);
    const body = await json<InvokeBody>(res);
    assert.equal(body.content, 'Order 42 has shipped.');
    assert.deepEqual(body.tool_calls, [{ tool_name: 'lookup_order', parameters: { orderId: '42' } }]);
    assert.equal(body.iterations, 2);
    assert.deepEqual(Object.keys(body.usage).sort(), ['completion_tokens', 'cost_usd', 'prompt_tokens', 'total_tokens']);
    assert.equal(body.usage.prompt_tokens, 220);
    assert.equal(body.usage.completion_tokens, 18);
    assert.equal(body.usage.total_tokens, 238);
    assert.ok(body.usage.cost_usd > 0, 'gpt-4o-mini has a price, so the run has a cost');
    assert.match(body.run_id, /^run_/);
    assert.equal(body.status, 'completed');
    assert.equal(body.session_id, undefined);
    assert.deepEqual(calls, ['42']);
  });

  test('messages input, metadata echoed, structured output as parsed', async () => {
    const served = serve(scriptedAgent({ replies: ['{"city":"Oslo","temp":3}'] }));
    const res = await post(served, '/invoke', {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] },
      ],
      response_format: { type: 'object', properties: { city: { type: 'string' }, temp: { type: 'number' } }, required: ['city', 'temp'] },
      metadata: { trace: 'abc' },
    });
    const body = await json<InvokeBody>(res);
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.deepEqual(body.parsed, { city: 'Oslo', temp: 3 });
    assert.deepEqual(body.metadata, { trace: 'abc' });
    assert.deepEqual(served.errors, []);
  });

  test('the agent sees the messages as sent (system and user)', async () => {
    const agent = scriptedAgent({ replies: ['ok'], record: true });
    const served = serve(agent);
    await post(served, '/invoke', { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }] });
    const sent = agent.provider.requests[0]?.messages.map((m) => [m.role, m.content]);
    assert.deepEqual(sent, [['system', 'Be brief.'], ['user', 'hi']]);
  });

  test('review-gated tools are denied unless the request approves them by glob', async () => {
    const ran: string[] = [];
    const script = () => [{ toolCalls: [{ toolName: 'refund_order', parameters: { orderId: '7' } }] }, 'done'];
    const denied = serve(scriptedAgent({ replies: script() }, { tools: [refundTool(ran)] }));
    const res1 = await json<InvokeBody>(await post(denied, '/invoke', { prompt: 'refund 7' }));
    assert.equal(res1.content, 'done');
    assert.deepEqual(ran, [], 'not approved: the tool did not run');

    const other = serve(scriptedAgent({ replies: script() }, { tools: [refundTool(ran)] }));
    await post(other, '/invoke', { prompt: 'refund 7', approve: ['lookup_*'] });
    assert.deepEqual(ran, [], 'a glob that does not match approves nothing');

    const approved = serve(scriptedAgent({ replies: script() }, { tools: [refundTool(ran)] }));
    const res3 = await post(approved, '/invoke', { prompt: 'refund 7', approve: ['refund_*'] });
    assert.equal(res3.status, 200);
    assert.deepEqual(ran, ['7'], 'approved by the request: the tool ran');
  });

  test('400: invalid JSON, unknown fields, both or neither of prompt/messages, bad session id, bad glob, bad response_format', async () => {
    const served = serve(scriptedAgent({ replies: ['x'], loop: true }));
    await expectError(post(served, '/invoke', '{"prompt":'), 400, 'invalid_request_error', /not valid JSON/);
    await expectError(post(served, '/invoke', { prompt: 'hi', temperature: 1 }), 400, 'invalid_request_error', /Unknown field "temperature"/);
    await expectError(post(served, '/invoke', { prompt: 'hi', messages: [{ role: 'user', content: 'x' }] }), 400, 'invalid_request_error', /exactly one/);
    await expectError(post(served, '/invoke', {}), 400, 'invalid_request_error', /exactly one/);
    await expectError(post(served, '/invoke', { prompt: 'hi', session_id: '../etc/passwd' }), 400, 'invalid_request_error', /session_id/);
    await expectError(post(served, '/invoke', { prompt: 'hi', approve: ['[unclosed'] }), 400, 'invalid_request_error');
    await expectError(post(served, '/invoke', { prompt: 'hi', response_format: { type: 'array', items: { type: 'string' } } }), 400, 'invalid_request_error', /responseFormat/);
    await expectError(post(served, '/invoke', '{"prompt":"hi","__proto__":{"polluted":true}}'), 400, 'invalid_request_error', /__proto__/);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });

  test('401: a bearer token is required (constant-time check); the right one passes', async () => {
    const served = serve(scriptedAgent({ replies: ['ok'], loop: true }), { authToken: 's3cret-token' });
    const missing = await expectError(post(served, '/invoke', { prompt: 'hi' }), 401, 'authentication_error');
    assert.ok(missing);
    const wrong = await post(served, '/invoke', { prompt: 'hi' }, { authorization: 'Bearer s3cret-tokem' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('www-authenticate'), 'Bearer');
    assert.equal((await post(served, '/invoke', { prompt: 'hi' }, { authorization: 'Basic s3cret-token' })).status, 401);
    assert.equal((await served.app.request('/health')).status, 401);
    const ok = await post(served, '/invoke', { prompt: 'hi' }, { authorization: 'Bearer s3cret-token' });
    assert.equal(ok.status, 200);
    assert.equal((await served.app.request('/playground')).status, 200, 'the page itself needs no token (it asks for one)');
  });

  test('403: another Host name is refused when no token is set (DNS rebinding)', async () => {
    const served = serve(scriptedAgent({ replies: ['ok'] }));
    await expectError(served.app.request('http://attacker.example/health'), 403, 'forbidden_error');
    assert.equal((await served.app.request('http://127.0.0.1:8000/health')).status, 200);
    assert.equal((await served.app.request('http://localhost/health')).status, 200);
  });

  test('404 and 405', async () => {
    const served = serve(scriptedAgent({ replies: ['ok'] }));
    await expectError(served.app.request('/nope'), 404, 'not_found_error');
    const res = await served.app.request('/invoke');
    await expectError(res, 405, 'method_not_allowed_error');
    assert.equal(res.headers.get('allow'), 'POST');
    await expectError(post(served, '/health', {}), 405, 'method_not_allowed_error');
  });

  test('413: a body over 1 MiB (by Content-Length, and chunked without one)', async () => {
    const served = serve(scriptedAgent({ replies: ['ok'] }));
    const big = JSON.stringify({ prompt: 'x'.repeat(1024 * 1024) });
    await expectError(post(served, '/invoke', big), 413, 'request_too_large_error');
    const chunks = [new TextEncoder().encode('{"prompt":"'), new Uint8Array(1024 * 1024).fill(120), new TextEncoder().encode('"}')];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    const res = await served.app.request('/invoke', { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' });
    await expectError(res, 413, 'request_too_large_error');
    const justUnder = JSON.stringify({ prompt: 'x'.repeat(1024 * 1024 - 20) });
    assert.equal((await post(served, '/invoke', justUnder)).status, 200);
  });

  test('415: a body that is not declared as JSON', async () => {
    const served = serve(scriptedAgent({ replies: ['ok'] }));
    await expectError(served.app.request('/invoke', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"prompt":"hi"}' }), 415, 'unsupported_media_type_error');
  });

  test('429: past --max-concurrency, with Retry-After; a slot frees when a run ends', async () => {
    // The first run holds its slot until the test lets its reply go (no fixed sleep to hold it).
    const running = gate();
    const release = gate();
    const served = serve(scriptedAgent({ respond: async (_request, index) => (index === 0 ? (running.open(), await release.opened, 'slow') : 'fast') }), { maxConcurrency: 1 });
    const first = post(served, '/invoke', { prompt: 'one' });
    await running.opened;
    const second = await post(served, '/invoke', { prompt: 'two' });
    await expectError(second, 429, 'rate_limit_error');
    assert.equal(second.headers.get('retry-after'), '1');
    release.open();
    assert.equal((await first).status, 200);
    assert.equal(served.activeRuns, 0);
    assert.equal((await post(served, '/invoke', { prompt: 'three' })).status, 200);
  });

  test('500: an unexpected failure is a generic JSON error; details go to the log only', async () => {
    const broken: SessionStore = {
      load: () => Promise.reject(new Error('disk on fire: /var/lib/secret-path')),
      save: () => Promise.resolve(),
      delete: () => Promise.resolve(),
    };
    const served = serve(scriptedAgent({ replies: ['ok'] }), { sessions: broken });
    const body = await expectError(post(served, '/invoke', { prompt: 'hi', session_id: 's1' }), 500, 'internal_error');
    assert.doesNotMatch(body.error.message, /secret-path/);
    assert.equal(served.errors.length, 1);
  });

  test('502: a provider failure is a 502 JSON error, never a 200 with error text', async () => {
    const served = serve(scriptedAgent({ replies: [{ error: new ProviderError('upstream exploded', { provider: 'scripted', status: 400 }) }] }));
    const body = await expectError(post(served, '/invoke', { prompt: 'hi' }), 502, 'provider_error', /upstream exploded/);
    assert.match(body.error.message, /scripted/);
  });

  test('502: structured output the model never gets right', async () => {
    const served = serve(scriptedAgent({ replies: ['not json'], loop: true }, { responseFormat: z.object({ a: z.number() }), structured: { maxRetries: 0 } }));
    await expectError(post(served, '/invoke', { prompt: 'hi' }), 502, 'provider_error', /structured/);
  });

  test('504: a run past the request timeout is aborted and answered 504', async () => {
    const agent = scriptedAgent({ replies: [{ text: 'too late', delayMs: 10_000 }] });
    const served = serve(agent, { timeoutMs: 50 });
    const started = performance.now();
    await expectError(post(served, '/invoke', { prompt: 'hi' }), 504, 'timeout_error');
    assert.ok(performance.now() - started < 2000);
    assert.equal(served.activeRuns, 0, 'the aborted run released its slot');
  });

  test('503: after shutdown starts, new requests are refused', async () => {
    const served = serve(scriptedAgent({ replies: ['ok'] }));
    await served.shutdown(0);
    await expectError(post(served, '/invoke', { prompt: 'hi' }), 503, 'service_unavailable_error');
    await expectError(served.app.request('/health'), 503, 'service_unavailable_error');
  });

  test('CORS is off by default and allows exactly the --cors origin', async () => {
    const off = serve(scriptedAgent({ replies: ['ok'] }));
    const res = await post(off, '/invoke', { prompt: 'hi' }, { origin: 'http://app.example' });
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    const on = serve(scriptedAgent({ replies: ['ok'] }), { cors: 'http://app.example' });
    const preflight = await on.app.request('/invoke', { method: 'OPTIONS', headers: { origin: 'http://app.example', 'access-control-request-method': 'POST' } });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://app.example');
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Authorization/i);
    const actual = await post(on, '/invoke', { prompt: 'hi' }, { origin: 'http://app.example' });
    assert.equal(actual.headers.get('access-control-allow-origin'), 'http://app.example');
  });

  test('every request runs on its own agent: no history leaks between requests without a session', async () => {
    const agent = scriptedAgent({ respond: (request) => `saw ${request.messages.filter((m) => m.role === 'user').length} user message(s)`, record: true });
    const served = serve(agent, { sessions: new InMemorySessionStore() });
    const a = await json<InvokeBody>(await post(served, '/invoke', { prompt: 'secret of user A' }));
    const b = await json<InvokeBody>(await post(served, '/invoke', { prompt: 'question of user B' }));
    assert.equal(a.content, 'saw 1 user message(s)');
    assert.equal(b.content, 'saw 1 user message(s)');
    const second = agent.provider.requests[1]?.messages ?? [];
    assert.ok(!second.some((m) => m.content.includes('secret of user A')), 'B never sees A');
  });
});
