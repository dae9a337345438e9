import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { listenLocal, scriptedAgent, serve } from './helpers.js';

/** One malformed request: a raw body (string or bytes) and its content type (undefined: none set, so the body goes as text/plain). */
interface BadCase {
  name: string;
  body: string | Uint8Array;
  contentType?: string | undefined;
  routes?: readonly string[];
}

const RUN_ROUTES = ['/invoke', '/stream'] as const;
const ALL_ROUTES = ['/invoke', '/stream', '/v1/chat/completions'] as const;
const JSON_TYPE = 'application/json';

function nested(depth: number, leaf: string, open = '{"a":', close = '}'): string {
  return open.repeat(depth) + leaf + close.repeat(depth);
}

function cases(): BadCase[] {
  const out: BadCase[] = [];
  const add = (name: string, body: string | Uint8Array, routes: readonly string[] = ALL_ROUTES, contentType: string | null = JSON_TYPE): void => {
    out.push({ name, body, contentType: contentType ?? undefined, routes });
  };
  const json = (value: unknown): string => JSON.stringify(value);

  // 1. Not JSON at all.
  const invalid = ['', ' ', '{', '}', '[', ']', '{"prompt":', '{"prompt": "x",}', '{"prompt" "x"}', "{'prompt':'x'}", '{prompt: "x"}', 'nul', 'undefined', 'NaN', '{"prompt": NaN}',
    '{"prompt": "x"} trailing', '{"prompt": "x"}{"prompt": "y"}', '{"prompt": "\\x41"}', '{"prompt": "\u0000\n"}', '// comment\n{"prompt":"x"}', '{"prompt": 0x10}', '{"prompt": .5}', '{"a": 01}',
    '{"prompt":"x"}\u0000', '{"prompt": "unterminated}', '[1, 2', '{"a": [}', nested(5000, '1').slice(0, -10), '{"prompt": "x"', 'true false'];
  invalid.forEach((body, i) => add(`invalid JSON #${i}`, body));
  add('invalid UTF-8', new Uint8Array([0x7b, 0x22, 0x70, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
  add('lone surrogate bytes', new Uint8Array([0x7b, 0x7d, 0xed, 0xa0, 0x80]));

  // 2. JSON, but not an object.
  for (const body of ['null', '1', '-1.5', '"prompt"', 'true', 'false', '[]', '[{"prompt":"x"}]', '[[]]', '{}']) add(`top level ${body}`, body);

  // 3. prompt of a wrong type or empty.
  for (const value of [1, 0, true, false, null, [], ['x'], {}, { text: 'x' }, '', '   ', '\n\t']) add(`prompt ${json(value)}`, json({ prompt: value }), RUN_ROUTES);
  add('prompt and messages', json({ prompt: 'x', messages: [{ role: 'user', content: 'x' }] }), RUN_ROUTES);

  // 4. messages malformed.
  const badMessages: unknown[] = [
    'hello', 1, true, {}, [], [null], [1], ['x'], [[]], [{}], [{ role: 'user' }], [{ content: 'x' }], [{ role: 1, content: 'x' }], [{ role: 'tool', content: 'x' }],
    [{ role: 'function', content: 'x' }], [{ role: 'admin', content: 'x' }], [{ role: 'USER', content: 'x' }], [{ role: 'user', content: 1 }], [{ role: 'user', content: null }],
    [{ role: 'user', content: { text: 'x' } }], [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:,' } }] }], [{ role: 'user', content: [{ type: 'text' }] }],
    [{ role: 'user', content: [1] }], [{ role: 'user', content: 'x' }, { role: 'assistant', content: 'y' }], [{ role: 'system', content: 'only system' }],
    Array.from({ length: 1001 }, () => ({ role: 'user', content: 'x' })),
  ];
  badMessages.forEach((messages, i) => add(`messages #${i}`, json({ messages }), ALL_ROUTES));

  // 5. session_id.
  for (const id of ['', '../x', '..', 'a/b', 'a\\b', 'a'.repeat(129), 'with space', 'ünï', 'a\u0000b', 'x..y', 7, null, {}, ['a']]) add(`session_id ${json(id).slice(0, 30)}`, json({ prompt: 'x', session_id: id }), RUN_ROUTES);

  // 6. approve.
  for (const approve of ['refund_*', 1, {}, [1], [''], [null], ['a'.repeat(300)], Array.from({ length: 65 }, (_, i) => `t${i}`), ['[unclosed'], [['nested']]]) {
    add(`approve ${json(approve).slice(0, 30)}`, json({ prompt: 'x', approve }), RUN_ROUTES);
    add(`chat approve ${json(approve).slice(0, 30)}`, json({ messages: [{ role: 'user', content: 'x' }], approve }), ['/v1/chat/completions']);
  }

  // 7. response_format.
  for (const format of ['json', 1, [], null, { type: 'array', items: { type: 'string' } }, { type: 'string' }, true]) add(`response_format ${json(format)}`, json({ prompt: 'x', response_format: format }), RUN_ROUTES);

  // 8. metadata.
  for (const metadata of ['x', 1, [], null, true, Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i]))]) add(`metadata ${json(metadata).slice(0, 30)}`, json({ prompt: 'x', metadata }), RUN_ROUTES);

  // 9. Prototype keys anywhere.
  const proto = [
    '{"__proto__": {"admin": true}, "prompt": "x"}',
    '{"prompt": "x", "metadata": {"__proto__": {"admin": true}}}',
    '{"prompt": "x", "metadata": {"constructor": {"prototype": {"admin": true}}}}',
    '{"prompt": "x", "metadata": {"a": [{"__proto__": 1}]}}',
    '{"prompt": "x", "metadata": {"prototype": 1}}',
    '{"messages": [{"role": "user", "content": "x", "__proto__": {"role": "system"}}]}',
    '{"messages": [{"role": "user", "content": "x", "constructor": 1}]}',
    '{"prompt": "x", "response_format": {"type": "object", "__proto__": {"x": 1}}}',
    '{"constructor": {"name": "x"}, "prompt": "x"}',
    '{"prompt": "x", "metadata": {"deep": {"deeper": {"__proto__": null}}}}',
  ];
  proto.forEach((body, i) => add(`prototype key #${i}`, body));

  // 10. Deep nesting (objects and arrays), parseable and not.
  for (const depth of [65, 100, 1000, 20_000]) {
    add(`metadata nested ${depth}`, `{"prompt":"x","metadata":${nested(depth, '1')}}`, RUN_ROUTES);
    add(`array nested ${depth}`, `{"prompt":"x","metadata":{"a":${nested(depth, '1', '[', ']')}}}`, RUN_ROUTES);
  }
  add('array nested 500k (1 MiB)', `${'['.repeat(500_000)}${']'.repeat(500_000)}`);

  // 11. Huge strings.
  add('prompt over 1 MiB', json({ prompt: 'x'.repeat(1024 * 1024 + 1) }));
  add('metadata string over 1 MiB', json({ prompt: 'x', metadata: { blob: 'é'.repeat(600_000) } }));
  add('many messages over 1 MiB', json({ messages: Array.from({ length: 900, }, () => ({ role: 'user', content: 'y'.repeat(1200) })) }));

  // 12. Unknown or misspelled fields.
  for (const key of ['promt', 'Prompt', 'input', 'query', 'temperature', 'max_tokens', 'sessionId', 'session', 'stream', 'tools']) add(`unknown field ${key}`, json({ prompt: 'x', [key]: 1 }), RUN_ROUTES);

  // 13. Content types.
  for (const type of [null, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'text/json', 'application/xml', 'application/octet-stream', 'json', '']) {
    add(`content-type ${String(type)}`, json({ prompt: 'x', messages: undefined }), ALL_ROUTES, type);
  }

  // 14. Chat-completions specifics.
  const chat = (extra: Record<string, unknown>): string => json({ model: 'x', messages: [{ role: 'user', content: 'hi' }], ...extra });
  for (const extra of [
    { stream: 'yes' }, { stream: 1 }, { n: 2 }, { n: 0 }, { tools: [{ type: 'function', function: { name: 'f' } }] }, { response_format: { type: 'bogus' } }, { response_format: 'json' },
    { response_format: { type: 'json_schema' } }, { response_format: { type: 'json_schema', json_schema: { schema: { type: 'array' } } } }, { model: 5 }, { stream_options: 'x' }, { messages: undefined }, { messages: 'hi' },
  ]) add(`chat ${json(extra).slice(0, 40)}`, chat(extra), ['/v1/chat/completions']);
  return out;
}

describe('bad input: malformed bodies get a 4xx JSON error, never a 5xx, and the server stays up', () => {
  const all = cases();
  const requests = all.flatMap((c) => (c.routes ?? ALL_ROUTES).map((route) => ({ ...c, route })));

  test(`${requests.length} malformed requests through app.request()`, async () => {
    assert.ok(requests.length >= 200, `at least 200 requests (${requests.length})`);
    const served = serve(scriptedAgent({ replies: ['should never be reached'], loop: true }));
    const statuses = new Map<number, number>();
    for (const request of requests) {
      const headers: Record<string, string> = request.contentType === undefined ? {} : { 'content-type': request.contentType };
      const res = await served.app.request(request.route, { method: 'POST', headers, body: request.body });
      const label = `${request.route} ${request.name}`;
      assert.ok(res.status >= 400 && res.status < 500, `${label}: status ${res.status}`);
      const body = (await res.json()) as { error?: { type?: unknown; message?: unknown } };
      assert.equal(typeof body.error?.type, 'string', label);
      assert.equal(typeof body.error?.message, 'string', label);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    assert.deepEqual([...statuses.keys()].sort(), [400, 413, 415]);
    assert.deepEqual(served.errors, [], 'nothing was logged as a server failure');
    assert.equal(served.activeRuns, 0, 'every slot was released');
    const health = await served.app.request('/health');
    assert.equal(health.status, 200);
    const ok = await served.app.request('/invoke', { method: 'POST', headers: { 'content-type': JSON_TYPE }, body: '{"prompt":"still up?"}' });
    assert.equal(ok.status, 200);
  });

  test('a subset over a real socket (every 5th case, including the 1 MiB ones)', async () => {
    const served = serve(scriptedAgent({ replies: ['fine'], loop: true }));
    const server = await listenLocal(served);
    try {
      const subset = requests.filter((_, i) => i % 5 === 0 || requests[i]?.name.includes('MiB') === true);
      assert.ok(subset.length >= 40);
      for (const request of subset) {
        const headers: Record<string, string> = request.contentType === undefined ? {} : { 'content-type': request.contentType };
        const res = await fetch(`${server.url}${request.route}`, { method: 'POST', headers, body: request.body });
        assert.ok(res.status >= 400 && res.status < 500, `${request.route} ${request.name}: ${res.status}`);
        assert.equal(typeof ((await res.json()) as { error: { type: string } }).error.type, 'string');
      }
      assert.equal((await fetch(`${server.url}/health`)).status, 200);
      assert.deepEqual(served.errors, []);
    } finally {
      await server.close(0);
    }
  });
});
