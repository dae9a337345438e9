import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { closeAllStorage, SchemaVersionError } from '../../../lib/storage/index.js';
import { migratePostgres } from '../../../lib/storage/migrate-postgres.js';
import { acquirePostgres } from '../../../lib/storage/postgres-pool.js';
import { acquireRedis, REDIS_CLOSE_GRACE_MS } from '../../../lib/storage/redis-pool.js';
import { freezableProxy } from '../../support/freezable-proxy.js';
import { requires } from '../../support/requirements.js';
import { freshPostgresDatabase, redisTestPrefix, redisTestUrl } from '../../support/services.js';

after(() => closeAllStorage());

describe('acquireRedis (real redis-server)', requires('redis'), () => {
  test('one connected client per URL, shared; the last release closes it', async () => {
    const url = redisTestUrl();
    const a = await acquireRedis(url);
    const b = await acquireRedis(url);
    assert.equal(a.client, b.client);
    const key = `${redisTestPrefix()}k`;
    await a.client.set(key, 'v');
    assert.equal(await b.client.get(key), 'v');
    await a.release();
    assert.ok(b.client.isOpen);
    await b.release();
    assert.equal(b.client.isOpen, false);
  });

  test('a server that is not there fails the acquire, and the next acquire tries again', async () => {
    const url = 'redis://127.0.0.1:1';
    await assert.rejects(acquireRedis(url, { connectTimeoutMs: 500 }));
    await assert.rejects(acquireRedis(url, { connectTimeoutMs: 500 }));
  });

  test('the last release does not hang on a server that stopped answering: after the grace period the connection is dropped', async () => {
    const proxy = await freezableProxy(redisTestUrl());
    try {
      const handle = await acquireRedis(proxy.url);
      proxy.freeze();
      const pending = handle.client.get(`${redisTestPrefix()}never`).catch((error: unknown) => error);
      const started = performance.now();
      await handle.release();
      const waited = performance.now() - started;
      assert.ok(waited >= REDIS_CLOSE_GRACE_MS - 50 && waited < REDIS_CLOSE_GRACE_MS + 2_000, `release took ${waited.toFixed(0)} ms`);
      assert.equal(handle.client.isOpen, false);
      assert.ok((await pending) instanceof Error, 'the pending command fails instead of hanging');
    } finally {
      await proxy.close();
    }
  });
});

describe('acquirePostgres and migratePostgres (real PostgreSQL)', requires('postgres'), () => {
  test('a shared pool; concurrent migrations run once; a newer database is refused', async () => {
    const database = await freshPostgresDatabase();
    try {
      const a = await acquirePostgres(database.url);
      const b = await acquirePostgres(database.url);
      assert.equal(a.pool, b.pool);
      const migrations = ['CREATE TABLE items (id SERIAL PRIMARY KEY, body TEXT)', 'CREATE TABLE item_migrations (at INT); INSERT INTO item_migrations VALUES (1)'];
      const versions = await Promise.all([1, 2, 3, 4].map(() => migratePostgres(a.pool, 'items', migrations)));
      assert.deepEqual(versions, [2, 2, 2, 2]);
      const count = await a.pool.query<{ n: string }>('SELECT COUNT(*) AS n FROM item_migrations');
      assert.equal(count.rows[0]?.n, '1');
      await assert.rejects(migratePostgres(a.pool, 'items', migrations.slice(0, 1)), (error: unknown) => SchemaVersionError.isInstance(error) && error.found === 2);
      await a.release();
      await b.release();
    } finally {
      await database.drop();
    }
  });
});
