import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { backendTargets, checkBackends, greetingFor, probeBackend, tcpProbe } from '../../../commands/doctor/redis-postgres.js';
import type { AgentFileConfig } from '../../../lib/config/types.js';
import { closedPort } from '../doctor-helpers.js';

describe('doctor: Redis / Postgres', () => {
  // A Redis-like server (answers each greeting, +PONG), one that accepts and never answers, one that hangs up.
  let server: Server;
  let port: number;
  let silent: Server;
  let silentPort: number;
  let hangUp: Server;
  let hangUpPort: number;
  const listen = async (made: Server): Promise<number> => {
    await new Promise<void>((resolve) => made.listen(0, '127.0.0.1', resolve));
    return (made.address() as AddressInfo).port;
  };
  before(async () => {
    server = createServer((socket) => socket.on('data', () => socket.end('+PONG\r\n')));
    port = await listen(server);
    silent = createServer((socket) => socket.resume());
    silentPort = await listen(silent);
    hangUp = createServer((socket) => socket.end());
    hangUpPort = await listen(hangUp);
  });
  after(async () => {
    for (const made of [server, silent, hangUp]) {
      made.close();
      (made as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
    }
  });

  test('targets: set variables, agentlib\'s own required, generic ones optional, plus a redis session.url', () => {
    const config = { source: 'a', baseDir: '/', tools: [], session: { store: 'redis', url: 'redis://cache:6380' } } as AgentFileConfig;
    const targets = backendTargets({ REDIS_URL: 'redis://r', AGENTLIB_POSTGRES_URL: 'postgres://p/db', DATABASE_URL: ' ' }, config);
    assert.deepEqual(targets.map((t) => [t.source, t.kind, t.required]), [
      ['REDIS_URL', 'redis', false],
      ['AGENTLIB_POSTGRES_URL', 'postgres', true],
      ['session.url', 'redis', true],
    ]);
  });

  test('tcpProbe: a server that answers the greeting is ok; a closed port is refused; a hang-up is no answer', async () => {
    const ok = await tcpProbe('127.0.0.1', port, 5000, undefined, greetingFor('redis', 'redis:'));
    assert.equal(ok.ok, true);
    const refused = await tcpProbe('127.0.0.1', await closedPort(), 5000, undefined, greetingFor('redis', 'redis:'));
    assert.deepEqual(refused, { ok: false, reason: 'ECONNREFUSED', timedOut: false });
    const closed = await tcpProbe('127.0.0.1', hangUpPort, 5000, undefined, greetingFor('postgres', 'postgres:'));
    assert.deepEqual(closed, { ok: false, reason: 'closed without answering', timedOut: false });
  });

  test('tcpProbe times out on a server that accepts the connection and never answers', async () => {
    const started = performance.now();
    const result = await tcpProbe('127.0.0.1', silentPort, 300, undefined, greetingFor('postgres', 'postgres:'));
    assert.deepEqual(result, { ok: false, reason: 'no answer within 300 ms', timedOut: true });
    // Not before its limit; the upper bound is generous for a loaded machine.
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 290 && elapsed < 5000, `${Math.round(elapsed)} ms`);
    const backend = await probeBackend({ source: 'AGENTLIB_REDIS_URL', kind: 'redis', value: `redis://127.0.0.1:${silentPort}`, required: true }, { timeoutMs: 300 });
    assert.equal(backend.status, 'fail');
    assert.equal(backend.detail, `cannot reach 127.0.0.1:${silentPort} (no answer within 300 ms)`);
    assert.equal(backend.data?.reason, 'timeout');
  });

  test('a reachable Redis: ok, with the address but not the password', async () => {
    const result = await probeBackend({ source: 'AGENTLIB_REDIS_URL', kind: 'redis', value: `redis://default:hunter2secret@127.0.0.1:${port}/0`, required: true }, { timeoutMs: 1000 });
    assert.equal(result.status, 'ok');
    assert.match(result.detail, new RegExp(`^redis://127\\.0\\.0\\.1:${port} answers`));
    assert.ok(!JSON.stringify(result).includes('hunter2secret'));
  });

  test('an unreachable Postgres: a failure when agentlib\'s own, a warning when generic', async () => {
    const closed = await closedPort();
    const own = await probeBackend({ source: 'AGENTLIB_POSTGRES_URL', kind: 'postgres', value: `postgresql://u:pw@127.0.0.1:${closed}/db`, required: true }, { timeoutMs: 1000 });
    assert.equal(own.status, 'fail');
    assert.equal(own.detail, `cannot reach 127.0.0.1:${closed} (ECONNREFUSED)`);
    assert.equal(own.hint, 'is the Postgres server running? check AGENTLIB_POSTGRES_URL');
    const generic = await probeBackend({ source: 'DATABASE_URL', kind: 'postgres', value: `postgres://127.0.0.1:${closed}/db`, required: false }, { timeoutMs: 1000 });
    assert.equal(generic.status, 'warn');
  });

  test('default ports, other schemes, sockets, offline and none configured', async () => {
    const mysql = await probeBackend({ source: 'DATABASE_URL', kind: 'postgres', value: 'mysql://u:p@db/x', required: false }, { timeoutMs: 100 });
    assert.equal(mysql.status, 'skip');
    assert.match(mysql.detail, /not a Postgres URL \(mysql:\/\/…\)/);
    const offline = await probeBackend({ source: 'REDIS_URL', kind: 'redis', value: 'redis://cache', required: false }, { timeoutMs: 100, offline: true });
    assert.equal(offline.detail, 'not probed (--offline): redis://cache:6379');
    const socket = await probeBackend({ source: 'DATABASE_URL', kind: 'postgres', value: 'postgres:///db?host=/var/run/postgresql', required: false }, { timeoutMs: 100 });
    assert.equal(socket.status, 'skip');
    const invalid = await probeBackend({ source: 'AGENTLIB_REDIS_URL', kind: 'redis', value: 'not a url', required: true }, { timeoutMs: 100 });
    assert.equal(invalid.status, 'fail');
    const none = await checkBackends({}, undefined, { timeoutMs: 100 });
    assert.equal(none.length, 1);
    assert.equal(none[0]?.status, 'skip');
  });
});
