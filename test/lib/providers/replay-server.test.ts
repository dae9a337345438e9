import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fixture, frameDataLines, jsonResponse, recordedResponses, sseResponse, startReplayServer, type ReplayServer } from '../../support/replay-server.js';

describe('replay server (test support)', () => {
  let server: ReplayServer;
  before(async () => (server = await startReplayServer()));
  after(async () => server.close());

  test('serves queued responses in order and records requests', async () => {
    server.enqueue(jsonResponse({ ok: 1 }), jsonResponse({ error: 'x' }, 429, { 'retry-after': '2' }));
    const a = await fetch(`${server.url}/v1/x`, { method: 'POST', body: JSON.stringify({ q: 1 }) });
    assert.deepEqual(await a.json(), { ok: 1 });
    const b = await fetch(`${server.url}/v1/y`);
    assert.equal(b.status, 429);
    assert.equal(b.headers.get('retry-after'), '2');
    assert.deepEqual(server.requests.map((r) => [r.method, r.path, r.json]), [['POST', '/v1/x', { q: 1 }], ['GET', '/v1/y', undefined]]);
    const unscripted = await fetch(`${server.url}/none`);
    assert.equal(unscripted.status, 599);
  });

  test('streams recorded bytes exactly, in chunks', async () => {
    const body = fixture('openai/chat.text.stream.include_usage.sse');
    server.enqueue(sseResponse(body, 7));
    const response = await fetch(server.url);
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), body);
  });

  test('interactions companions give status, headers and body; data lines are re-framed per provider', async () => {
    const [first] = recordedResponses('openai/error.401.invalid_api_key.interactions.json');
    assert.equal(first!.status, 401);
    const framed = frameDataLines('{"type":"ping"}\n{"type":"message_stop"}\n', 'anthropic');
    assert.equal(framed, 'event: ping\ndata: {"type":"ping"}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n');
    assert.match(frameDataLines('{"a":1}', 'openai'), /data: \[DONE\]\n\n$/);
    assert.equal(frameDataLines('{"a":1}', 'gemini'), 'data: {"a":1}\r\n\r\n');
  });

  test('injects connection resets', async () => {
    server.enqueue({ reset: true }, { ...sseResponse('data: {"x":1}\n\ndata: {"x":2}\n\n'), resetAfterBytes: 10 });
    await assert.rejects(fetch(server.url));
    const cut = await fetch(server.url);
    await assert.rejects(cut.text());
  });
});
