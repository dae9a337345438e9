import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { RedisCache } from '../../../lib/cache/index.js';
import { CacheTimeoutError, ConfigurationError } from '../../../lib/core/errors/index.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { eventLog, testRuntime } from '../../support/agent-harness.js';
import { requires } from '../../support/requirements.js';
import { redisTestUrl } from '../../support/services.js';
import { freezableProxy } from '../../support/freezable-proxy.js';

const run = promisify(execFile);
const child = fileURLToPath(new URL('./fixtures/redis-run-child.ts', import.meta.url));

async function runChild(url: string, prefix: string): Promise<{ content: string; providerCalls: number; hits: number; totalTokens: number; cacheHitSteps: number }> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', child, url, prefix], { timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as never;
}

describe('RedisCache with a real server', requires('redis'), () => {
  test('two processes share one RedisCache: the second identical run is a cache hit with no provider call', async () => {
    const prefix = `agentlib-test:${randomUUID()}:`;
    const first = await runChild(redisTestUrl(), prefix);
    const second = await runChild(redisTestUrl(), prefix);
    assert.equal(first.providerCalls, 1);
    assert.equal(first.hits, 0);
    assert.equal(second.providerCalls, 0, 'the second process never called its provider');
    assert.equal(second.hits, 1);
    assert.equal(second.cacheHitSteps, 1);
    assert.equal(second.content, first.content, 'the reply of the first process');
    assert.equal(second.totalTokens, first.totalTokens, 'usage is still counted');
    const cleanup = new RedisCache(redisTestUrl(), { keyPrefix: prefix });
    await cleanup.clear();
    await cleanup.close();
  });

  test('values are stored under <prefix><namespace>:k:<key> with a server-side TTL', async () => {
    const prefix = `agentlib-test:${randomUUID()}:`;
    const cache = new RedisCache(redisTestUrl(), { keyPrefix: prefix, namespace: 'ns' });
    await cache.set('llm:abc', { message: { role: 'assistant', content: 'hi' } }, 120);
    const { acquireRedis } = await import('../../../lib/storage/redis-pool.js');
    const raw = await acquireRedis(redisTestUrl());
    try {
      const ttl = await raw.client.pTTL(`${prefix}ns:k:llm:abc`);
      assert.ok(ttl > 110_000 && ttl <= 120_000, `PTTL ${ttl}`);
      assert.deepEqual(JSON.parse((await raw.client.get(`${prefix}ns:k:llm:abc`)) ?? 'null'), { message: { role: 'assistant', content: 'hi' } });
    } finally {
      await raw.release();
      await cache.clear();
      await cache.close();
    }
  });

  test('a hit is a plain GET: its LRU mark is sent later, in the order of use, and always before this cache evicts', async () => {
    const prefix = `agentlib-test:${randomUUID()}:`;
    const cache = new RedisCache(redisTestUrl(), { keyPrefix: prefix, maxSize: 3 });
    const { acquireRedis } = await import('../../../lib/storage/redis-pool.js');
    const raw = await acquireRedis(redisTestUrl());
    const order = () => raw.client.zRange(`${prefix}default:lru`, 0, -1);
    try {
      for (const key of ['a', 'b', 'c']) await cache.set(key, key);
      await cache.get('b');
      await cache.get('a');
      await cache.get('b');
      assert.deepEqual(await order(), ['a', 'b', 'c'], 'nothing sent with the hits');
      await cache.flushMarks();
      assert.deepEqual(await order(), ['c', 'a', 'b'], 'one mark per key, in the order of last use');
      await cache.get('c');
      await cache.set('d', 'd');
      assert.deepEqual(await order(), ['b', 'c', 'd'], 'c was read before d was set, so a went');
      assert.equal(cache.stats().evictions, 1);
      await raw.client.del(`${prefix}default:k:b`);
      assert.equal(await cache.get('b'), undefined);
      await cache.flushMarks();
      assert.deepEqual(await order(), ['c', 'd'], 'a key found gone leaves the LRU set');
    } finally {
      await raw.release();
      await cache.clear();
      await cache.close();
    }
  });

  test('touchBatch bounds the pending marks (1: every hit sends its mark); close() sends them', async () => {
    const prefix = `agentlib-test:${randomUUID()}:`;
    const eager = new RedisCache(redisTestUrl(), { keyPrefix: prefix, touchBatch: 1 });
    const { acquireRedis } = await import('../../../lib/storage/redis-pool.js');
    const raw = await acquireRedis(redisTestUrl());
    const order = () => raw.client.zRange(`${prefix}default:lru`, 0, -1);
    try {
      await eager.set('a', 1);
      await eager.set('b', 2);
      await eager.get('a');
      assert.deepEqual(await order(), ['b', 'a']);
      const lazy = new RedisCache(redisTestUrl(), { keyPrefix: prefix });
      await lazy.get('b');
      assert.deepEqual(await order(), ['b', 'a']);
      await lazy.close();
      assert.deepEqual(await order(), ['a', 'b']);
      assert.throws(() => new RedisCache(redisTestUrl(), { touchBatch: 0 }), ConfigurationError);
      assert.throws(() => new RedisCache(redisTestUrl(), { touchFlushMs: -1 }), ConfigurationError);
    } finally {
      await raw.release();
      await eager.clear();
      await eager.close();
    }
  });
});

describe('RedisCache outage', () => {
  test('an unreachable server degrades to a miss with an error event; the run completes', async () => {
    // A loopback port nothing listens on.
    const { createServer } = await import('node:net');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const cache = new RedisCache(`redis://127.0.0.1:${port}`);
    const provider = new ScriptedProvider({ replies: ['answer one', 'answer two'] });
    const log = eventLog();
    const agent = new Agent({ provider, cache, observers: [log.observer], runtime: testRuntime() });
    const first = await agent.ask('q');
    const second = await agent.ask('q');
    assert.equal(first.status, 'completed');
    assert.equal(second.content, 'answer two', 'no cache: the provider answered again');
    assert.equal(provider.requests.length, 2);
    const errors = log.of('error').filter((e) => e.stage === 'cache');
    assert.ok(errors.length >= 2, 'each failed read is reported');
    assert.match(errors[0]?.error.message ?? '', /response cache read failed/);
    await cache.close();
  });
});

describe('RedisCache on a server that stops answering after connect', requires('redis'), () => {
  test('each operation gives up after operationTimeoutMs (CacheTimeoutError); an agent run degrades to a miss with an error event', async () => {
    const proxy = await freezableProxy(redisTestUrl());
    const prefix = `agentlib-test:${randomUUID()}:`;
    // Connecting (loading the driver included) is bounded by the storage module's connect timeout, not by operationTimeoutMs.
    const warm = new RedisCache(proxy.url, { keyPrefix: prefix });
    const cache = new RedisCache(proxy.url, { keyPrefix: prefix, operationTimeoutMs: 150 });
    try {
      await warm.set('k', 'v');
      assert.equal(await cache.get('k'), 'v', 'connected and answering');
      proxy.freeze();
      await assert.rejects(cache.get('k'), (error: unknown) => CacheTimeoutError.isInstance(error) && error.operation === 'get' && error.timeoutMs === 150);
      await assert.rejects(cache.set('k2', 'v2'), (error: unknown) => CacheTimeoutError.isInstance(error) && error.operation === 'set');
      const provider = new ScriptedProvider({ replies: ['fresh answer'] });
      const log = eventLog();
      const agent = new Agent({ provider, cache, observers: [log.observer], runtime: testRuntime() });
      const result = await agent.ask('q');
      assert.equal(result.status, 'completed');
      assert.equal(result.content, 'fresh answer');
      const errors = log.of('error').filter((e) => e.stage === 'cache');
      assert.deepEqual(
        errors.map((e) => e.error.message.replace(/ \(redis:.*$/, '')),
        ['response cache read failed: RedisCache get took longer than 150 ms', 'response cache write failed: RedisCache set took longer than 150 ms'],
      );
      proxy.thaw();
      assert.equal(await cache.get('k'), 'v', 'the late replies are discarded; the cache answers again');
    } finally {
      proxy.thaw();
      await cache.close();
      await warm.close();
      await proxy.close();
      const cleanup = new RedisCache(redisTestUrl(), { keyPrefix: prefix });
      await cleanup.clear();
      await cleanup.close();
    }
  });

  test('operationTimeoutMs must be a finite number > 0', () => {
    assert.throws(() => new RedisCache('redis://127.0.0.1:1', { operationTimeoutMs: 0 }), ConfigurationError);
    assert.throws(() => new RedisCache('redis://127.0.0.1:1', { operationTimeoutMs: Number.POSITIVE_INFINITY }), ConfigurationError);
  });
});
