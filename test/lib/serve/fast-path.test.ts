import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Agent as HttpAgent, createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { getRequestListener } from '@hono/node-server';
import { Agent } from '../../../lib/agent/agent.js';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { createServeApp, type ServeApp, type ServeAppOptions, type SessionStore } from '../../../lib/serve/index.js';
import { scriptedAgent, serve, until } from './helpers.js';
import type { ScriptedProviderOptions } from '../../../lib/providers/scripted.js';

// POST /invoke and POST /stream over a real socket take the Node fast path; the Hono routes answer
// the same requests through @hono/node-server (as `listen` did before the fast path). Every status
// either route answers is sent through both, and the answers must be the same: status, headers
// (but Date) and body (but run ids and timestamps). A fast path that falls back to Hono fails too.

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

interface RawRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body chunked (no Content-Length). */
  chunked?: boolean;
  agent?: HttpAgent;
}

function send(port: number, request: RawRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = request.body ?? '';
    const headers: Record<string, string | number> = { host: `127.0.0.1:${port}`, 'content-type': 'application/json', ...request.headers };
    if (!request.chunked && !('content-length' in headers)) headers['content-length'] = Buffer.byteLength(body);
    const req = httpRequest({ host: '127.0.0.1', port, method: request.method ?? 'POST', path: request.path ?? '/invoke', headers, agent: request.agent ?? false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (request.chunked) {
      const bytes = Buffer.from(body);
      for (let i = 0; i < bytes.length; i += 64 * 1024) req.write(bytes.subarray(i, i + 64 * 1024));
      req.end();
    } else {
      req.end(body);
    }
  });
}

/** Run ids, timestamps and durations differ between two runs; everything else must not. */
function normalized(text: string): string {
  return text
    .replace(/run_[A-Za-z0-9_-]+/g, 'run_ID')
    .replace(/"(timestamp|durationMs|startedAt|endedAt)":\d+(\.\d+)?/g, '"$1":0');
}

function comparableHeaders(headers: IncomingHttpHeaders, body: string): Record<string, unknown> {
  const { date: _date, 'content-length': length, ...rest } = headers;
  // Content-Length follows the body, whose run ids may differ in length.
  return { ...rest, 'content-length': length === undefined ? undefined : normalized(body).length > 0 };
}

function assertSame(fast: Answer, hono: Answer, label: string): void {
  assert.equal(fast.status, hono.status, `${label}: status (fast ${fast.body} / hono ${hono.body})`);
  assert.deepEqual(comparableHeaders(fast.headers, fast.body), comparableHeaders(hono.headers, hono.body), `${label}: headers`);
  assert.equal(normalized(fast.body), normalized(hono.body), `${label}: body`);
}

/** One ServeApp behind two servers: `fast` (its requestListener) and `hono` (@hono/node-server only). */
class Pair {
  readonly fallbacks: string[] = [];
  #fast: Server;
  #hono: Server;

  constructor(readonly served: ServeApp) {
    const hono = getRequestListener(served.fetch);
    this.#fast = createServer(served.requestListener({ fallback: (req, res) => {
      this.fallbacks.push(`${req.method ?? ''} ${req.url ?? ''}`);
      void hono(req, res);
    } }));
    this.#hono = createServer((req, res) => void hono(req, res));
  }

  async start(): Promise<this> {
    for (const server of [this.#fast, this.#hono]) {
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
    }
    return this;
  }

  get fastPort(): number {
    return (this.#fast.address() as AddressInfo).port;
  }

  get honoPort(): number {
    return (this.#hono.address() as AddressInfo).port;
  }

  /** Sends `request` through the fast path, then through Hono, and checks both answers are the same. */
  async both(request: RawRequest, label: string, status: number): Promise<{ fast: Answer; hono: Answer }> {
    const before = this.fallbacks.length;
    const fast = await send(this.fastPort, request);
    assert.equal(this.fallbacks.length, before, `${label}: served by the fast path, not handed to Hono`);
    const hono = await send(this.honoPort, request);
    assertSame(fast, hono, label);
    assert.equal(fast.status, status, `${label}: ${fast.body}`);
    return { fast, hono };
  }

  close(): void {
    for (const server of [this.#fast, this.#hono]) {
      server.close();
      server.closeAllConnections();
    }
  }
}

const pairs: Pair[] = [];
async function pair(reply: ScriptedProviderOptions, options: Omit<ServeAppOptions, 'agent'> = {}): Promise<Pair> {
  const started = await new Pair(serve(scriptedAgent({ loop: true, ...reply }), options)).start();
  pairs.push(started);
  return started;
}
after(() => {
  for (const p of pairs) p.close();
});

const PROMPT = JSON.stringify({ prompt: 'hi' });

function errorType(answer: Answer): string {
  return (JSON.parse(answer.body) as { error: { type: string } }).error.type;
}

for (const path of ['/invoke', '/stream'] as const) {
  describe(`POST ${path}: the fast path answers as the Hono route does`, () => {
    test('200', async () => {
      const p = await pair({ replies: [{ chunks: ['Order ', '42 ', 'shipped.'], usage: { promptTokens: 5, completionTokens: 3 } }] });
      const { fast } = await p.both({ path, body: JSON.stringify({ prompt: 'Where is 42?', metadata: { k: 1 } }) }, '200', 200);
      if (path === '/invoke') {
        assert.equal((JSON.parse(fast.body) as { content: string }).content, 'Order 42 shipped.');
        assert.match(fast.headers['content-type'] ?? '', /^application\/json/);
      } else {
        assert.match(fast.headers['content-type'] ?? '', /^text\/event-stream/);
        const names = [...fast.body.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
        assert.equal(names[0], 'run-start');
        assert.equal(names.at(-1), 'run-end');
        assert.equal(names.filter((n) => n === 'text-delta').length, 3);
      }
    });

    test('400: invalid JSON, invalid UTF-8, unknown field, prototype key, bad session id, empty body', async () => {
      const p = await pair({ replies: ['never'] });
      const bodies: [string, string | Buffer][] = [
        ['invalid JSON', '{"prompt":'],
        ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x70, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])],
        ['unknown field', JSON.stringify({ prompt: 'hi', temperature: 1 })],
        ['prototype key', '{"prompt":"hi","metadata":{"__proto__":{"admin":true}}}'],
        ['bad session id', JSON.stringify({ prompt: 'hi', session_id: '../etc' })],
        ['empty body', ''],
        ['not an object', '[1]'],
      ];
      for (const [label, body] of bodies) {
        const { fast } = await p.both({ path, body }, label, 400);
        assert.equal(errorType(fast), 'invalid_request_error');
      }
    });

    test('401 without or with a wrong token, 200 with the right one', async () => {
      const p = await pair({ replies: ['ok'] }, { authToken: 'a-long-enough-token' });
      await p.both({ path, body: PROMPT }, 'no token', 401);
      const { fast } = await p.both({ path, body: PROMPT, headers: { authorization: 'Bearer a-long-enough-tokem' } }, 'wrong token', 401);
      assert.equal(fast.headers['www-authenticate'], 'Bearer');
      await p.both({ path, body: PROMPT, headers: { authorization: 'Bearer a-long-enough-token' } }, 'right token', 200);
    });

    test('403: a Host name that is not loopback', async () => {
      const p = await pair({ replies: ['ok'] });
      const { fast } = await p.both({ path, body: PROMPT, headers: { host: 'attacker.example' } }, 'foreign host', 403);
      assert.equal(errorType(fast), 'forbidden_error');
      await p.both({ path, body: PROMPT, headers: { host: 'localhost:8000' } }, 'localhost', 200);
    });

    test('413 by Content-Length and while reading a chunked body; 1 MiB by default', async () => {
      const p = await pair({ replies: ['ok'] });
      const big = JSON.stringify({ prompt: 'x'.repeat(1024 * 1024) });
      await p.both({ path, body: big }, 'declared', 413);
      await p.both({ path, body: big, chunked: true }, 'chunked', 413);
      await p.both({ path, body: JSON.stringify({ prompt: 'x'.repeat(1024 * 1024 - 20) }) }, 'just under', 200);
      const small = await pair({ replies: ['ok'] }, { bodyLimitBytes: 100 });
      await small.both({ path, body: JSON.stringify({ prompt: 'y'.repeat(200) }), chunked: true }, 'custom limit', 413);
    });

    test('a keep-alive connection carries the next request after a 413 whose body was not read', async () => {
      const p = await pair({ replies: ['ok'] });
      const big = JSON.stringify({ prompt: 'x'.repeat(2 * 1024 * 1024) });
      for (const port of [p.fastPort, p.honoPort]) {
        const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
        try {
          assert.equal((await send(port, { path, body: big, agent })).status, 413);
          assert.equal((await send(port, { path, body: PROMPT, agent })).status, 200);
        } finally {
          agent.destroy();
        }
      }
    });

    test('415: a body not declared as JSON', async () => {
      const p = await pair({ replies: ['ok'] });
      await p.both({ path, body: PROMPT, headers: { 'content-type': 'text/plain' } }, 'text/plain', 415);
      await p.both({ path, body: PROMPT, headers: { 'content-type': 'application/problem+json; charset=utf-8' } }, '+json', 200);
    });

    test('429: past maxConcurrency, with Retry-After', async () => {
      const p = await pair({ replies: [{ text: 'slow', delayMs: 1000 }] }, { maxConcurrency: 1 });
      const slow = send(p.fastPort, { path, body: PROMPT });
      await until(() => p.served.activeRuns === 1, 2000, 'the slow run');
      const { fast } = await p.both({ path, body: PROMPT }, 'at capacity', 429);
      assert.equal(fast.headers['retry-after'], '1');
      assert.equal((await slow).status, 200);
    });

    test('500: an unexpected failure, logged, generic message', async () => {
      const broken: SessionStore = { load: () => Promise.reject(new Error('disk on fire')), save: () => Promise.resolve(), delete: () => Promise.resolve() };
      const p = await pair({ replies: ['ok'] }, { sessions: broken });
      const body = JSON.stringify({ prompt: 'hi', session_id: 's' });
      if (path === '/invoke') {
        const { fast } = await p.both({ path, body }, 'broken store', 500);
        assert.doesNotMatch(fast.body, /disk on fire/);
      } else {
        const { fast } = await p.both({ path, body }, 'broken store', 200);
        assert.match(fast.body, /event: error\ndata: \{"error":\{"type":"internal_error"/);
      }
      const errors = (p.served as ServeApp & { errors: unknown[] }).errors;
      assert.equal(errors.length, 2, 'logged once per path');
    });

    test('500: an agent factory that throws', async () => {
      let built = 0;
      const agent = scriptedAgent({ replies: ['ok'], loop: true });
      const served = createServeApp({ agent: () => {
        built += 1;
        if (built > 1) throw new Error('factory broke');
        return new Agent(agent);
      }, logError: () => undefined, keepAliveMs: 0 });
      const p = await new Pair(served).start();
      pairs.push(p);
      const { fast } = await p.both({ path, body: PROMPT }, 'factory', path === '/invoke' ? 500 : 200);
      assert.match(fast.body, /internal_error/);
      assert.equal(served.activeRuns, 0);
    });

    test('502: the provider failed', async () => {
      const p = await pair({ replies: [{ error: new ProviderError('model is down', { provider: 'scripted', status: 400 }) }] });
      const { fast } = await p.both({ path, body: PROMPT }, 'provider error', path === '/invoke' ? 502 : 200);
      assert.match(fast.body, /provider_error/);
    });

    test('503: draining, with Connection: close', async () => {
      const p = await pair({ replies: ['ok'] });
      await p.served.shutdown(0);
      const { fast } = await p.both({ path, body: PROMPT }, 'draining', 503);
      assert.equal(fast.headers['connection'], 'close');
    });

    test('503: a run aborted by the drain', async () => {
      const answers: Answer[] = [];
      for (const side of ['fast', 'hono'] as const) {
        const p = await pair({ replies: [{ chunks: ['a ', 'b ', 'c '], chunkDelayMs: 300, delayMs: 300 }] });
        const pending = send(side === 'fast' ? p.fastPort : p.honoPort, { path, body: PROMPT });
        await until(() => p.served.activeRuns === 1, 2000, 'the run');
        const drained = p.served.shutdown(50);
        answers.push(await pending);
        assert.deepEqual(await drained, { finished: 0, aborted: 1 });
        assert.deepEqual(p.fallbacks, []);
      }
      const [fast, hono] = answers as [Answer, Answer];
      assertSame(fast, hono, 'aborted by the drain');
      assert.equal(fast.status, path === '/invoke' ? 503 : 200);
      assert.match(fast.body, /service_unavailable_error/);
    });

    test('504: past the timeout', async () => {
      const p = await pair({ replies: [{ chunks: ['a ', 'b ', 'c '], chunkDelayMs: 200, delayMs: 200 }] }, { timeoutMs: 100 });
      const { fast } = await p.both({ path, body: PROMPT }, 'timeout', path === '/invoke' ? 504 : 200);
      assert.match(fast.body, /timeout_error/);
      await until(() => p.served.activeRuns === 0, 3000, 'the slots to be released');
    });

    test('CORS headers for the allowed origin and for another one', async () => {
      for (const origin of ['http://app.example', '*']) {
        const p = await pair({ replies: ['ok'] }, { cors: origin });
        const { fast } = await p.both({ path, body: PROMPT, headers: { origin: 'http://app.example' } }, `allowed (${origin})`, 200);
        assert.equal(fast.headers['access-control-allow-origin'], origin);
        await p.both({ path, body: PROMPT, headers: { origin: 'http://other.example' } }, `other origin (${origin})`, 200);
        await p.both({ path, body: PROMPT }, `no origin (${origin})`, 200);
        await p.both({ path, body: '{', headers: { origin: 'http://app.example' } }, `error (${origin})`, 400);
      }
    });

    test('the access log has the same line for both', async () => {
      const lines: string[] = [];
      const p = await pair({ replies: ['ok'] }, { accessLog: (line) => void lines.push(line) });
      await p.both({ path, body: PROMPT }, 'logged', 200);
      await p.both({ path, body: '{' }, 'logged error', 400);
      const shape = (line: string): string => line.replace(/^\S+ /, '').replace(/\d+ms$/, 'ms');
      assert.equal(lines.length, 4);
      assert.match(lines[0] as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z POST \/(invoke|stream) 200 \d+ms$/);
      assert.deepEqual(lines.map(shape), [`POST ${path} 200 ms`, `POST ${path} 200 ms`, `POST ${path} 400 ms`, `POST ${path} 400 ms`]);
    });
  });
}

describe('what the fast path leaves to Hono', () => {
  test('other routes, methods, a query string, an unusual Host header', async () => {
    const p = await pair({ replies: ['ok'] });
    const cases: [RawRequest, number][] = [
      [{ method: 'GET', path: '/health' }, 200],
      [{ method: 'GET', path: '/invoke' }, 405],
      [{ path: '/invoke?trace=1', body: PROMPT }, 200],
      [{ path: '/invoke/', body: PROMPT }, 404],
      [{ path: '/invoke', body: PROMPT, headers: { host: 'LOCALHOST' } }, 200],
      [{ path: '/invoke', body: PROMPT, headers: { host: '[::1]:8000' } }, 200],
      [{ method: 'POST', path: '/v1/chat/completions', body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }) }, 200],
    ];
    for (const [request, status] of cases) {
      const before = p.fallbacks.length;
      const fast = await send(p.fastPort, request);
      assert.equal(p.fallbacks.length, before + 1, `${request.method ?? 'POST'} ${request.path ?? ''} went to Hono`);
      const hono = await send(p.honoPort, request);
      assertSame(fast, hono, `${request.path ?? ''}`);
      assert.equal(fast.status, status, `${request.path ?? ''}: ${fast.body}`);
    }
  });
});

describe('an answer the fast path cannot write', () => {
  test('is logged and the connection dropped; the server stays up', async () => {
    const errors: unknown[] = [];
    const served = createServeApp({ agent: scriptedAgent({ replies: ['ok'], loop: true }), logError: (_m, error) => void errors.push(error), keepAliveMs: 0 });
    const listener = served.requestListener();
    let broken = 1;
    const server = createServer((req, res) => {
      if (broken-- > 0) {
        res.writeHead = () => {
          throw new Error('cannot write the head');
        };
      }
      listener(req, res);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    try {
      await assert.rejects(send(port, { body: PROMPT }), /socket hang up|ECONNRESET/);
      assert.equal(errors.length, 1);
      assert.match(String(errors[0]), /cannot write the head/);
      assert.equal((await send(port, { body: PROMPT })).status, 200, 'the next request is answered');
      await until(() => served.activeRuns === 0, 2000, 'the slots to be released');
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });
});
