import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { SQLiteCache } from '../../../lib/cache/index.js';
import { ConfigurationError } from '../../../lib/core/errors/index.js';
import { acquireSqlite } from '../../../lib/storage/index.js';
import { usingExperimental } from '../../support/capture-warnings.js';

const work = mkdtempSync(join(tmpdir(), 'agentlib-sqlite-cache-'));
after(() => rmSync(work, { recursive: true, force: true }));
let files = 0;
const freshFile = () => join(work, `cache-${++files}.db`);
/** Lets the event loop run one turn: an immediate queued before this one (the next chunk of marks) runs first. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The LRU positions in the file, as another process would read them. */
function positions(file: string): Record<string, number> {
  const handle = acquireSqlite(file);
  try {
    const rows = handle.db.prepare('SELECT key, accessed FROM agentlib_cache ORDER BY key').all() as { key: string; accessed: number }[];
    return Object.fromEntries(rows.map((row) => [row.key, row.accessed]));
  } finally {
    handle.release();
  }
}

describe('SQLiteCache: batched LRU touch', () => {
  test('a hit writes nothing until the batch is full; then the marks go in access order (a re-read moves a key last)', async () => {
    const file = freshFile();
    const cache = new SQLiteCache(file, { touchBatch: 3 });
    for (const key of ['a', 'b', 'c', 'd']) await cache.set(key, key);
    const written = positions(file);
    assert.deepEqual(written, { a: 1, b: 2, c: 3, d: 4 });
    await cache.get('c');
    await cache.get('a');
    await cache.get('c');
    assert.deepEqual(positions(file), written, 'two distinct keys marked: nothing written yet');
    await cache.get('b');
    assert.deepEqual(positions(file), { a: 5, c: 6, b: 7, d: 4 });
    await cache.close();
  });

  test('the marks are written before this cache writes, so its evictions follow exact LRU order', async () => {
    const file = freshFile();
    const cache = new SQLiteCache(file, { maxSize: 2 });
    await cache.set('a', 1);
    await cache.set('b', 2);
    await cache.get('a');
    await cache.set('c', 3);
    assert.deepEqual(positions(file), { a: 3, c: 4 }, 'b went, not a (read after b was written)');
    await cache.close();
  });

  test('close() writes the pending marks: another cache object on the file then evicts by them', async () => {
    const file = freshFile();
    const reader = new SQLiteCache(file);
    await reader.set('a', 1);
    await reader.set('b', 2);
    await reader.get('a');
    await reader.close();
    const writer = new SQLiteCache(file, { maxSize: 2 });
    await writer.set('c', 3);
    assert.equal(await writer.get('b'), undefined);
    assert.equal(await writer.get('a'), 1);
    await writer.close();
  });

  test('pending marks are written touchFlushMs after the first one (an unref’d timer)', async (t) => {
    await usingExperimental(/MockTimers/, () => t.mock.timers.enable({ apis: ['setTimeout'] }));
    const file = freshFile();
    const cache = new SQLiteCache(file, { touchFlushMs: 500 });
    await cache.set('a', 1);
    await cache.set('b', 2);
    await cache.get('a');
    t.mock.timers.tick(499);
    assert.deepEqual(positions(file), { a: 1, b: 2 });
    t.mock.timers.tick(1);
    assert.deepEqual(positions(file), { a: 3, b: 2 });
    await cache.close();
  });

  test('by default a hit never writes: touchBatch is twice maxSize, a memory bound', async () => {
    const file = freshFile();
    const cache = new SQLiteCache(file, { maxSize: 3 });
    for (const key of ['a', 'b', 'c']) await cache.set(key, key);
    const written = positions(file);
    for (let round = 0; round < 100; round++) for (const key of ['c', 'b', 'a']) await cache.get(key);
    assert.deepEqual(positions(file), written, '300 hits on 3 keys: nothing written yet');
    cache.flushMarks();
    assert.deepEqual(positions(file), { c: 4, b: 5, a: 6 }, 'one mark per key, in the order of last use');
    await cache.close();
    // Six marks (2 × maxSize) are written at once: the pending set is bounded even if other processes add keys.
    const shared = freshFile();
    const writer = new SQLiteCache(shared, { maxSize: 10 });
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f']) await writer.set(key, key);
    const reader = new SQLiteCache(shared, { maxSize: 3 });
    for (const key of ['f', 'e', 'd', 'c', 'b']) await reader.get(key);
    assert.deepEqual(positions(shared), { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 });
    await reader.get('a');
    assert.deepEqual(positions(shared), { f: 7, e: 8, d: 9, c: 10, b: 11, a: 12 });
    await reader.close();
    await writer.close();
  });

  test('the timer writes the marks touchChunk at a time, one transaction per event-loop turn, in the order of use', async (t) => {
    await usingExperimental(/MockTimers/, () => t.mock.timers.enable({ apis: ['setTimeout'] }));
    const file = freshFile();
    const cache = new SQLiteCache(file, { touchFlushMs: 100, touchChunk: 2 });
    for (const key of ['a', 'b', 'c', 'd', 'e']) await cache.set(key, key);
    for (const key of ['e', 'd', 'c', 'b', 'a']) await cache.get(key);
    t.mock.timers.tick(100);
    assert.deepEqual(positions(file), { a: 1, b: 2, c: 3, e: 6, d: 7 }, 'the two oldest marks');
    await cache.get('c');
    await nextTurn();
    assert.deepEqual(positions(file), { a: 9, b: 8, c: 3, d: 7, e: 6 }, 'b then a were next; c, re-read, moved last');
    await nextTurn();
    assert.deepEqual(positions(file), { e: 6, d: 7, b: 8, a: 9, c: 10 });
    await cache.close();
  });

  test('touchBatch 1 writes every hit at once; bad settings are refused', async () => {
    const file = freshFile();
    const cache = new SQLiteCache(file, { touchBatch: 1 });
    await cache.set('a', 1);
    await cache.set('b', 2);
    await cache.get('a');
    assert.deepEqual(positions(file), { a: 3, b: 2 });
    await cache.close();
    assert.throws(() => new SQLiteCache(freshFile(), { touchBatch: 0 }), ConfigurationError);
    assert.throws(() => new SQLiteCache(freshFile(), { touchFlushMs: -1 }), ConfigurationError);
    assert.throws(() => new SQLiteCache(freshFile(), { touchChunk: 0 }), ConfigurationError);
  });
});
