import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InMemoryCache } from '../../../lib/cache/index.js';
import { ConfigurationError } from '../../../lib/core/errors/index.js';

function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = 0;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

describe('InMemoryCache', () => {
  test('defaults: 1,000 entries, 300 s', async () => {
    const c = clock();
    const cache = new InMemoryCache({ now: c.now });
    for (let i = 0; i < 1_001; i++) await cache.set(`k${i}`, i);
    assert.equal(cache.size, 1_000);
    assert.equal(await cache.get('k0'), undefined);
    assert.equal(cache.stats().evictions, 1);
    c.advance(299_999);
    assert.equal(await cache.get('k1'), 1);
    c.advance(1);
    assert.equal(await cache.get('k1'), undefined);
  });

  test('uses the monotonic clock by default, so moving the wall clock changes nothing', async (t) => {
    const cache = new InMemoryCache({ defaultTtl: 60 });
    await cache.set('k', 'v');
    t.mock.method(Date, 'now', () => 8_000_000_000_000);
    assert.equal(await cache.get('k'), 'v');
  });

  test('values are copied when stored and handed out frozen', async () => {
    const cache = new InMemoryCache();
    const value = { message: { content: 'a' } };
    await cache.set('k', value);
    value.message.content = 'changed';
    const read = (await cache.get('k')) as { message: { content: string } };
    assert.equal(read.message.content, 'a');
    assert.throws(() => {
      read.message.content = 'x';
    }, TypeError);
  });

  test('a value JSON cannot carry is refused when stored', async () => {
    const cache = new InMemoryCache();
    await assert.rejects(cache.set('k', { f: () => 1 }), /value\.f/);
  });

  test('LRU order through reads, repeated reads of the newest entry, deletes, re-sets and expiry', async () => {
    const c = clock();
    const cache = new InMemoryCache({ maxSize: 4, now: c.now });
    for (const key of ['a', 'b', 'c', 'd']) await cache.set(key, key, 10);
    await cache.get('b');
    await cache.get('a');
    await cache.get('a');
    assert.equal(await cache.delete('c'), true);
    await cache.set('e', 'e', 10);
    await cache.set('f', 'f', 10);
    assert.deepEqual([await cache.get('d'), cache.size, cache.stats().evictions], [undefined, 4, 1], 'd was the least recently used (c, deleted, is no eviction)');
    await cache.set('b', 'b2', 10);
    await cache.set('g', 'g', 10);
    assert.equal(await cache.get('a'), undefined, 'a went next: b was set again after it');
    c.advance(5_000);
    await cache.set('h', 'h', 100);
    c.advance(5_000);
    assert.equal(await cache.get('e'), undefined, 'expired');
    await cache.set('i', 'i', 100);
    await cache.set('j', 'j', 100);
    assert.deepEqual(
      await Promise.all(['b', 'f', 'g', 'h', 'i', 'j'].map((key) => cache.get(key))),
      [undefined, undefined, undefined, 'h', 'i', 'j'],
      'the expired ones went first, then the oldest live one',
    );
    assert.equal(cache.size, 3);
    await cache.clear();
    cache.resetStats();
    for (const key of ['k', 'l', 'm', 'n', 'o']) await cache.set(key, key, 100);
    assert.deepEqual([await cache.get('k'), await cache.get('l'), cache.stats().evictions], [undefined, 'l', 1], 'after clear() the order starts afresh');
  });

  test('bad sizes and TTLs are configuration errors', async () => {
    assert.throws(() => new InMemoryCache({ maxSize: 0 }), (e: unknown) => ConfigurationError.isInstance(e));
    assert.throws(() => new InMemoryCache({ defaultTtl: -1 }), /TTL must be a number of seconds > 0/);
    await assert.rejects(async () => new InMemoryCache().set('k', 1, 0), /TTL must be/);
  });
});
