import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { InMemoryCache, RedisCache, SemanticCache, SQLiteCache, type Cache } from '../../../lib/cache/index.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { requires } from '../../support/requirements.js';
import { redisTestUrl } from '../../support/services.js';

const work = mkdtempSync(join(tmpdir(), 'agentlib-cache-conformance-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A backend under test: `open` makes a cache on a fresh location, `reopen` another cache object on the same one. */
interface Backend {
  name: string;
  skip?: { skip: string | false };
  /** Opens a fresh store; `namespace` opens a second cache object on it; `advance` moves the clock the TTLs use (undefined: real server time). */
  fresh(options?: { maxSize?: number; defaultTtl?: number }): { open: (namespace?: string) => Cache; advance?: (ms: number) => void };
}

function virtualClock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

const BACKENDS: Backend[] = [
  {
    name: 'InMemoryCache',
    fresh: (options = {}) => {
      const clock = virtualClock();
      // One process-local store per object: a second namespace is a second object, which is isolation by construction.
      return { open: () => new InMemoryCache({ ...options, now: clock.now }), advance: clock.advance };
    },
  },
  {
    name: 'SemanticCache (exact keys)',
    fresh: (options = {}) => {
      const clock = virtualClock();
      return { open: () => new SemanticCache(new ScriptedProvider(), { ...options, now: clock.now }), advance: clock.advance };
    },
  },
  {
    name: 'SQLiteCache',
    fresh: (options = {}) => {
      const clock = virtualClock();
      const file = join(work, `${randomUUID()}.db`);
      return { open: (namespace) => new SQLiteCache(file, { ...options, now: clock.now, ...(namespace === undefined ? {} : { namespace }) }), advance: clock.advance };
    },
  },
  {
    name: 'RedisCache',
    skip: requires('redis'),
    fresh: (options = {}) => {
      const keyPrefix = `agentlib-test:${randomUUID()}:`;
      return { open: (namespace) => new RedisCache(redisTestUrl(), { ...options, keyPrefix, ...(namespace === undefined ? {} : { namespace }) }) };
    },
  },
];

const reply = { message: { role: 'assistant', content: 'Sunny, 21 °C', toolCalls: [{ id: 'c1', toolName: 'get_weather', parameters: { city: 'Graz' } }] }, reasoning: '', usage: { promptTokens: 12, completionTokens: 5, totalTokens: 17, costUsd: 0.0001 }, finishReason: 'stop' };

/** Polls `check` until it holds (a real server's TTL), failing after `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const backend of BACKENDS) {
  describe(`Cache conformance: ${backend.name}`, backend.skip ?? {}, () => {
    const opened: Cache[] = [];
    const open = (store: ReturnType<Backend['fresh']>, namespace?: string): Cache => {
      const cache = store.open(namespace);
      opened.push(cache);
      return cache;
    };
    after(async () => {
      for (const cache of opened) {
        await cache.clear();
        await cache.close();
      }
    });

    test('get returns what set stored (JSON data, a reply with usage); a missing key is undefined; delete says whether it was there', async () => {
      const cache = open(backend.fresh());
      assert.equal(await cache.get('nothing'), undefined);
      await cache.set('llm:1', reply);
      await cache.set('tool_result:t:1', 'plain text result');
      assert.deepEqual(await cache.get('llm:1'), reply);
      assert.equal(await cache.get('tool_result:t:1'), 'plain text result');
      assert.equal(await cache.delete('llm:1'), true);
      assert.equal(await cache.delete('llm:1'), false);
      assert.equal(await cache.get('llm:1'), undefined);
      await cache.set('tool_result:t:1', 'replaced');
      assert.equal(await cache.get('tool_result:t:1'), 'replaced');
    });

    test('TTL: an entry lives for its own TTL, else the default TTL', async () => {
      const store = backend.fresh({ defaultTtl: 60 });
      const cache = open(store);
      if (store.advance === undefined) {
        // A real server keeps time itself: a short TTL expires on its clock.
        await cache.set('short', 'x', 0.2);
        await cache.set('long', 'y');
        assert.equal(await cache.get('short'), 'x');
        await eventually(async () => (await cache.get('short')) === undefined);
        assert.equal(await cache.get('long'), 'y');
        return;
      }
      await cache.set('short', 'x', 5);
      await cache.set('default', 'y');
      store.advance(4_999);
      assert.equal(await cache.get('short'), 'x');
      store.advance(1);
      assert.equal(await cache.get('short'), undefined);
      assert.equal(await cache.get('default'), 'y');
      store.advance(55_000);
      assert.equal(await cache.get('default'), undefined);
      assert.equal(cache.stats().evictions, 0, 'expiry is no eviction');
    });

    test('LRU: past maxSize the least recently used entry goes (a read counts as a use)', async () => {
      const cache = open(backend.fresh({ maxSize: 3 }));
      await cache.set('a', 1);
      await cache.set('b', 2);
      await cache.set('c', 3);
      assert.equal(await cache.get('a'), 1);
      await cache.set('d', 4);
      assert.equal(await cache.get('b'), undefined, 'b was the least recently used');
      assert.deepEqual([await cache.get('a'), await cache.get('c'), await cache.get('d')], [1, 3, 4]);
      await cache.set('e', 5);
      assert.equal(await cache.get('a'), undefined, 'a was read before c and d');
      assert.equal(cache.stats().evictions, 2);
    });

    test('stats: hits, misses, evictions, hit rate; resetStats', async () => {
      const cache = open(backend.fresh());
      assert.deepEqual(cache.stats(), { ...cache.stats(), hits: 0, misses: 0, evictions: 0, hitRate: 0 });
      await cache.set('k', 'v');
      await cache.get('k');
      await cache.get('k');
      await cache.get('x');
      const stats = cache.stats();
      assert.deepEqual([stats.hits, stats.misses, stats.evictions, stats.hitRate], [2, 1, 0, 2 / 3]);
      cache.resetStats();
      assert.deepEqual([cache.stats().hits, cache.stats().misses, cache.stats().hitRate], [0, 0, 0]);
    });

    test('namespaces: caches on one store see only their own entries; clear empties only its own', async () => {
      const store = backend.fresh();
      const a = open(store, 'agent-a');
      const b = open(store, 'agent-b');
      await a.set('same-key', 'from a');
      assert.equal(await b.get('same-key'), undefined);
      await b.set('same-key', 'from b');
      assert.equal(await a.get('same-key'), 'from a');
      await a.clear();
      assert.equal(await a.get('same-key'), undefined);
      assert.equal(await b.get('same-key'), 'from b');
    });

    test('a value JSON cannot carry is refused', async () => {
      const cache = open(backend.fresh());
      await assert.rejects(cache.set('k', { run: () => 1 }));
      assert.equal(await cache.get('k'), undefined);
    });

    test('bad TTLs are refused', async () => {
      const cache = open(backend.fresh());
      await assert.rejects(cache.set('k', 'v', 0), /TTL must be a number of seconds > 0/);
      await assert.rejects(cache.set('k', 'v', Number.NaN), /TTL must be/);
    });
  });
}
