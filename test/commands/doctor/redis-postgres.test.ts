import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { backendTargets, checkBackends, probeBackend, tcpProbe } from '../../../commands/doctor/redis-postgres.js';
import type { AgentFileConfig } from '../../../lib/config/types.js';
import { closedPort } from '../doctor-helpers.js';

describe('doctor: Redis / Postgres', () => {
  let server: Server;
  let port: number;
  before(async () => {
    server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
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

  test('tcpProbe: connects to a listening port, is refused by a closed one, and times out', async () => {
    const ok = await tcpProbe('127.0.0.1', port, 1000);
    assert.equal(ok.ok, true);
    const refused = await tcpProbe('127.0.0.1', await closedPort(), 1000);
    assert.deepEqual(refused, { ok: false, reason: 'ECONNREFUSED', timedOut: false });
    // 10.255.255.1 is unroutable on most networks; whatever happens, the probe ends within its limit.
    const started = performance.now();
    await tcpProbe('10.255.255.1', 6379, 200);
    assert.ok(performance.now() - started < 1500);
  });

  test('a reachable Redis: ok, with the address but not the password', async () => {
    const result = await probeBackend({ source: 'AGENTLIB_REDIS_URL', kind: 'redis', value: `redis://default:hunter2secret@127.0.0.1:${port}/0`, required: true }, { timeoutMs: 1000 });
    assert.equal(result.status, 'ok');
    assert.match(result.detail, new RegExp(`^redis://127\\.0\\.0\\.1:${port} accepts connections`));
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
