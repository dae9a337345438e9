import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { RunningServer, ServeAppOptions } from '../../../lib/serve/index.js';
import { BODY_ROUTES, chunk, openRaw, within, type RawAnswer } from './raw-http.js';
import { listenLocal, scriptedAgent, serve } from './helpers.js';

// Answers sent before the request body was read: the 413 of an oversized body. Issue 13, item 25:
// the 413 must come while the client is still sending (the streaming cap, and the Content-Length
// pre-check before any byte is read), not after the whole body was read. Item 4: with
// `Connection: close`, the server closed the connection under a client still sending, the kernel
// answered its next bytes with a reset, and the reset destroyed the 413 before the client read it.

const LIMIT = 1000;
const servers: RunningServer[] = [];
after(async () => {
  for (const server of servers) await server.close(0);
});

async function start(options: Omit<ServeAppOptions, 'agent'> = {}): Promise<RunningServer> {
  // Without the early refusals the body deadline answers instead (408): a wrong status, not a hang.
  const server = await listenLocal(serve(scriptedAgent({ loop: true, replies: ['ok'] }), { bodyLimitBytes: LIMIT, timeoutMs: 0, bodyTimeoutMs: 8000, ...options }));
  servers.push(server);
  return server;
}

function assertTooLarge(answer: RawAnswer, label: string): void {
  assert.equal(answer.status, 413, `${label}: ${answer.error ?? ''} ${answer.head} ${answer.body}`);
  assert.equal((JSON.parse(answer.body) as { error: { type: string } }).error.type, 'request_too_large_error');
}

describe('413 before the body is read (fast path and Hono routes)', () => {
  test('limit + 1 bytes on a chunked stream the client keeps open: the 413 arrives while it is still sending', async () => {
    const server = await start();
    for (const route of BODY_ROUTES) {
      const client = openRaw(server.port, route.path, { 'Transfer-Encoding': 'chunked' });
      try {
        for (let sent = 0; sent <= LIMIT; sent += 100) await client.write(chunk('x'.repeat(Math.min(100, LIMIT + 1 - sent))));
        // No last chunk: the body is not over, and a server that waited for its end would not answer now.
        assertTooLarge(await within(client.answer, 20_000, `the 413 of ${route.label}`), route.label);
        assert.ok(!client.socket.writableEnded, `${route.label}: the client never ended its body`);
      } finally {
        client.socket.destroy();
      }
    }
  });

  test('Content-Length over the limit: refused before a byte of the body is sent', async () => {
    const server = await start();
    for (const route of BODY_ROUTES) {
      const client = openRaw(server.port, route.path, { 'Content-Length': String(LIMIT + 1) });
      try {
        assertTooLarge(await within(client.answer, 20_000, `the 413 of ${route.label}`), route.label);
      } finally {
        client.socket.destroy();
      }
    }
  });
});

describe('Connection: close: the 413 reaches a client that sends its whole oversized body first', () => {
  const BODY = 8 * 1024 * 1024; // far more than the socket buffers take: the client is still sending when the 413 goes out
  const TRIES = 6;

  /**
   * Writes the whole body (chunked or by Content-Length) without reading, as many HTTP clients do
   * (Python's http.client, for one), then reads the answer.
   */
  async function upload(port: number, path: string, chunked: boolean): Promise<RawAnswer> {
    const client = openRaw(port, path, chunked ? { 'Transfer-Encoding': 'chunked', Connection: 'close' } : { 'Content-Length': String(BODY), Connection: 'close' });
    client.socket.pause(); // the answer waits in the kernel until the body is sent
    const piece = Buffer.alloc(64 * 1024, 'x');
    try {
      for (let sent = 0; sent < BODY; sent += piece.length) await client.write(chunked ? chunk(piece) : piece);
      if (chunked) await client.write('0\r\n\r\n');
    } catch (error) {
      // A reset while sending: the client never gets to read the answer.
      client.socket.destroy();
      return { status: 0, head: '', body: '', error: `sending failed: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
    }
    client.socket.resume();
    try {
      return await within(client.answer, 10_000, 'the answer');
    } finally {
      client.socket.destroy();
    }
  }

  for (const chunked of [false, true]) {
    test(`${chunked ? 'chunked' : 'Content-Length'}: ${TRIES} uploads per route, every one answered 413`, async () => {
      const server = await start({ bodyTimeoutMs: 0 });
      const answered: Record<string, string[]> = {};
      for (const route of BODY_ROUTES) {
        const outcomes = (answered[route.label] = [] as string[]);
        for (let i = 0; i < TRIES; i++) {
          const answer = await upload(server.port, route.path, chunked);
          outcomes.push(answer.status === 413 ? '413' : (answer.error ?? `${answer.status}`));
        }
      }
      const expected = Object.fromEntries(BODY_ROUTES.map((route) => [route.label, Array<string>(TRIES).fill('413')]));
      assert.deepEqual(answered, expected);
    });
  }
});
