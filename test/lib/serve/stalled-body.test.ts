import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { RunningServer, ServeAppOptions } from '../../../lib/serve/index.js';
import { BODY_ROUTES, chunk, openRaw, within, type RawAnswer, type RawClient } from './raw-http.js';
import { listenLocal, scriptedAgent, serve, until } from './helpers.js';

// Issue 13, item 1: a POST whose body stops arriving held its concurrency slot for good (the body
// reader never settled), so a few stalled clients turned every later request into a 429. Every
// route that reads a body (the Node fast path and the Hono routes) is stalled at once, with as
// many slots as stalled requests: one slot not given back fails the wait for 0 active runs, and
// the normal requests afterwards need every slot.

const servers: RunningServer[] = [];
after(async () => {
  for (const server of servers) await server.close(0);
});

async function start(options: Omit<ServeAppOptions, 'agent'>): Promise<{ served: ReturnType<typeof serve>; server: RunningServer }> {
  const served = serve(scriptedAgent({ loop: true, replies: ['ok'] }), { maxConcurrency: BODY_ROUTES.length, ...options });
  const server = await listenLocal(served);
  servers.push(server);
  return { served, server };
}

/**
 * A chunked POST on every route that sends the start of its body, then (with `trickle`) a space
 * every 100 ms and never the end: the connection stays busy until the test stops it, so only the
 * reader settling on its own deadline gives the slot back, not the server cutting the connection.
 */
function stallAll(port: number, trickle: boolean): { clients: RawClient[]; stop: () => void } {
  const clients = BODY_ROUTES.map((route) => {
    const client = openRaw(port, route.path, { 'Transfer-Encoding': 'chunked' });
    void client.write(chunk('{"prompt":')).catch(() => undefined);
    return client;
  });
  const timer = trickle ? setInterval(() => {
    for (const client of clients) void client.write(chunk(' ')).catch(() => undefined);
  }, 100) : undefined;
  return {
    clients,
    stop: () => {
      clearInterval(timer);
      for (const client of clients) client.socket.destroy();
    },
  };
}

/** Every slot is free again: a normal request on every route, all at once, succeeds. */
async function allRoutesAnswer(server: RunningServer, served: { activeRuns: number }): Promise<void> {
  // Well before the server would cut a still-sending client off (LINGER.maxMs, 30 s).
  await until(() => served.activeRuns === 0, 5000, 'every concurrency slot to be given back');
  const answers = await Promise.all(BODY_ROUTES.map((route) => fetch(`${server.url}${route.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: route.body })));
  for (const [i, response] of answers.entries()) {
    const text = await response.text();
    assert.equal(response.status, 200, `${BODY_ROUTES[i]?.label}: ${text}`);
  }
}

/**
 * Stalls (trickling) a request on every route of a server with `options`, checks each answer, then
 * that every slot is free while the stalled clients are still connected and sending.
 */
async function stalledThenFree(options: Omit<ServeAppOptions, 'agent'>, check: (answer: RawAnswer, label: string) => void): Promise<void> {
  const { served, server } = await start(options);
  const stalled = stallAll(server.port, true);
  try {
    const answers = await within(Promise.all(stalled.clients.map((client) => client.answer)), 10_000, 'the stalled requests to be answered');
    for (const [i, answer] of answers.entries()) check(answer, BODY_ROUTES[i]?.label ?? '');
    await allRoutesAnswer(server, served);
  } finally {
    stalled.stop();
  }
}

describe('a stalled request body never keeps its concurrency slot (fast path and Hono routes)', () => {
  test('the request timeout answers 504 and the slot is given back', async () => {
    await stalledThenFree({ timeoutMs: 300, bodyTimeoutMs: 0 }, (answer, label) => assert.equal(answer.status, 504, `${label}: ${answer.head} ${answer.body}`));
  });

  test('the body deadline answers 408 with Connection: close and the slot is given back (no request timeout)', async () => {
    await stalledThenFree({ timeoutMs: 0, bodyTimeoutMs: 300 }, (answer, label) => {
      assert.equal(answer.status, 408, `${label}: ${answer.head} ${answer.body}`);
      assert.match(answer.head, /\r\nconnection: close/i, `${label}: the connection cannot carry another request`);
      assert.equal((JSON.parse(answer.body) as { error: { type: string } }).error.type, 'request_timeout_error');
    });
  });

  test('a client that goes away mid-body gives its slot back at once (no deadline at all)', async () => {
    const { served, server } = await start({ timeoutMs: 0, bodyTimeoutMs: 0 });
    const stalled = stallAll(server.port, false);
    await until(() => served.activeRuns === BODY_ROUTES.length, 10_000, 'every stalled request to be admitted');
    stalled.stop();
    await allRoutesAnswer(server, served);
  });
});
