import { acquireSqlite, checkStoreId, migrateSqlite, toStrictJson } from '../storage/index.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { CacheStatsCounter } from './cache-stats.js';
import { checkTtl, resolveCacheOptions, type ResolvedCacheOptions } from './cache-options.js';
import { PendingMarks } from './pending-marks.js';
import type { Cache, CacheOptions, CacheStats } from './types.js';

/** Options of a SQLiteCache. */
export interface SQLiteCacheOptions extends CacheOptions {
  /** Entries of other namespaces in the same file are invisible to this cache. Default `default`. */
  namespace?: string;
  /**
   * A hit marks its entry used in memory, and never writes: the marks are written `touchFlushMs`
   * after the first one (by a timer, in chunks of `touchChunk` keys per event-loop turn), always
   * before this cache writes, deletes, clears or closes, and at once when this many keys are
   * marked — a memory bound, default twice `maxSize` (a process's marks are keys of live entries,
   * so one namespace rarely holds more). 1 writes every hit at once (the slow way).
   */
  touchBatch?: number;
  /** Longest a mark stays in memory, in ms (an unref'd timer: it never keeps a process alive). Default 1000. */
  touchFlushMs?: number;
  /** Marks written per transaction by the timer, one transaction per event-loop turn (bounds the pause). Default 256. */
  touchChunk?: number;
}

/**
 * Schema of the cache subsystem (migrations[i] takes version i to i + 1). `accessed` is a logical
 * clock per namespace (the highest value + 1 on every read or write), so LRU order holds across
 * the processes that share one file.
 */
const MIGRATIONS = [
  `CREATE TABLE agentlib_cache (
     namespace TEXT NOT NULL,
     key TEXT NOT NULL,
     value TEXT NOT NULL,
     expires_at INTEGER NOT NULL,
     accessed INTEGER NOT NULL,
     PRIMARY KEY (namespace, key)
   ) WITHOUT ROWID;
   CREATE INDEX agentlib_cache_lru ON agentlib_cache (namespace, accessed);`,
];

interface Row {
  value: string;
  expires_at: number;
}

/** Defaults of the deferred LRU touch (see SQLiteCacheOptions; `touchBatch` defaults to twice maxSize). */
export const SQLITE_TOUCH_DEFAULTS = { touchFlushMs: 1_000, touchChunk: 256 } as const;

/**
 * A cache in a SQLite file (default `.agentlib/agentlib.db`, shared with the other subsystems
 * through the storage module's one connection per file): survives restarts, so `agentlib run
 * --cache` answers a repeated prompt from disk. LRU within `maxSize` per namespace and per-entry
 * TTL on `Date.now()` (wall clock: an expiry must mean the same after a restart). Values are
 * stored as strict JSON (a function, class instance, cycle or NaN is refused with its path).
 *
 * A hit costs one SELECT: its LRU mark is kept in memory and written later, once per key however
 * often it was read (see `touchBatch`), always before this cache's own writes, so its evictions
 * follow exact LRU order. Another process sharing the file sees this process's reads up to
 * `touchFlushMs` late, and a crash loses the unwritten marks (LRU order, never data).
 */
export class SQLiteCache implements Cache {
  readonly path: string;
  readonly namespace: string;
  readonly #options: ResolvedCacheOptions;
  readonly #stats = new CacheStatsCounter();
  readonly #handle: Awaited<ReturnType<typeof acquireSqlite>>;
  readonly #sql;
  readonly #touchBatch: number;
  readonly #touchFlushMs: number;
  readonly #touchChunk: number;
  /** Keys read since the last flush, with their order of use. */
  readonly #touched = new PendingMarks();
  /** Cancels the scheduled flush (the first timer, or the next chunk's turn), if any. */
  #flushTimer: (() => void) | undefined;
  /** Writes the marks of `keys` (oldest use first) in one transaction, after every mark already written. */
  readonly #writeMarks: (keys: string[]) => void;

  /** Opens (creating it and its schema when needed) the cache in the SQLite file `path`. */
  constructor(path: string, options: SQLiteCacheOptions = {}) {
    this.#options = resolveCacheOptions('SQLiteCache', options, Date.now);
    this.namespace = checkStoreId(options.namespace ?? 'default', 'cache namespace');
    this.#touchBatch = options.touchBatch ?? 2 * this.#options.maxSize;
    this.#touchFlushMs = options.touchFlushMs ?? SQLITE_TOUCH_DEFAULTS.touchFlushMs;
    this.#touchChunk = options.touchChunk ?? SQLITE_TOUCH_DEFAULTS.touchChunk;
    if (!Number.isInteger(this.#touchBatch) || this.#touchBatch < 1) throw new ConfigurationError(`SQLiteCache: touchBatch must be an integer ≥ 1, got ${String(this.#touchBatch)}`);
    if (!Number.isInteger(this.#touchChunk) || this.#touchChunk < 1) throw new ConfigurationError(`SQLiteCache: touchChunk must be an integer ≥ 1, got ${String(this.#touchChunk)}`);
    if (!(this.#touchFlushMs >= 0) || !Number.isFinite(this.#touchFlushMs)) throw new ConfigurationError(`SQLiteCache: touchFlushMs must be a finite number ≥ 0, got ${String(this.#touchFlushMs)}`);
    this.#handle = acquireSqlite(path);
    this.path = this.#handle.path;
    const { db } = this.#handle;
    migrateSqlite(db, 'cache', MIGRATIONS);
    this.#sql = {
      get: db.prepare('SELECT value, expires_at FROM agentlib_cache WHERE namespace = ? AND key = ?'),
      clock: db.prepare('SELECT COALESCE(MAX(accessed), 0) AS clock FROM agentlib_cache WHERE namespace = ?'),
      touch: db.prepare('UPDATE agentlib_cache SET accessed = ? WHERE namespace = ? AND key = ?'),
      put: db.prepare(
        `INSERT INTO agentlib_cache (namespace, key, value, expires_at, accessed)
         VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(accessed), 0) + 1 FROM agentlib_cache WHERE namespace = ?))
         ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at, accessed = excluded.accessed`,
      ),
      count: db.prepare('SELECT COUNT(*) AS n FROM agentlib_cache WHERE namespace = ?'),
      oldest: db.prepare('SELECT key, expires_at FROM agentlib_cache WHERE namespace = ? ORDER BY accessed LIMIT ?'),
      delete: db.prepare('DELETE FROM agentlib_cache WHERE namespace = ? AND key = ?'),
      deleteLive: db.prepare('DELETE FROM agentlib_cache WHERE namespace = ? AND key = ? AND expires_at > ?'),
      clear: db.prepare('DELETE FROM agentlib_cache WHERE namespace = ?'),
    };
    this.#writeMarks = db.transaction((keys: string[]) => {
      let { clock } = this.#sql.clock.get(this.namespace) as { clock: number };
      for (const key of keys) this.#sql.touch.run(++clock, this.namespace, key);
    });
  }

  /**
   * Writes every pending LRU mark now, in the order of use. They are otherwise written within
   * `touchFlushMs`, and always before this cache's own writes; call this to hand the file to another
   * process with this one's recency (benchmarks also use it to count the deferred work).
   */
  flushMarks(): void {
    this.#cancelFlush();
    if (this.#touched.size === 0) return;
    this.#writeMarks(this.#touched.take());
  }

  #cancelFlush(): void {
    this.#flushTimer?.();
    this.#flushTimer = undefined;
  }

  /**
   * The timer's flush: the `touchChunk` oldest marks in one transaction, the rest on the next
   * event-loop turn (a mark re-read meanwhile moves to the end and is written after, as it should).
   */
  #flushChunk(): void {
    this.#flushTimer = undefined;
    const keys = this.#touched.take(this.#touchChunk);
    try {
      if (keys.length > 0) this.#writeMarks(keys);
    } catch {
      // The shared connection was closed under this cache (closeAllStorage): the marks are LRU hints, not data.
      this.#touched.clear();
    }
    if (this.#touched.size > 0) {
      // The next chunk on the next event-loop turn, after pending I/O.
      const turn = setImmediate(() => this.#flushChunk());
      turn.unref();
      this.#flushTimer = () => clearImmediate(turn);
    }
  }

  #armFlush(): void {
    const timer = setTimeout(() => this.#flushChunk(), this.#touchFlushMs);
    // An unref'd timer: pending marks never keep a process alive (close() writes them).
    timer.unref();
    this.#flushTimer = () => clearTimeout(timer);
  }

  /** Marks `key` used; written within touchFlushMs, or at once when touchBatch keys are marked. */
  #touch(key: string): void {
    this.#touched.mark(key);
    if (this.#touched.size >= this.#touchBatch) this.flushMarks();
    else if (this.#flushTimer === undefined) this.#armFlush();
  }

  async get(key: string): Promise<unknown> {
    const row = this.#sql.get.get(this.namespace, key) as Row | undefined;
    if (row === undefined) return this.#stats.record(undefined);
    if (row.expires_at <= this.#options.now()) {
      this.#sql.delete.run(this.namespace, key);
      return this.#stats.record(undefined);
    }
    this.#touch(key);
    return this.#stats.record(JSON.parse(row.value) as unknown);
  }

  async set(key: string, value: unknown, ttlSeconds?: number): Promise<void> {
    const ttl = ttlSeconds === undefined ? this.#options.defaultTtl : checkTtl('SQLiteCache', ttlSeconds);
    const text = toStrictJson(value, 'value');
    const now = this.#options.now();
    // Earlier reads must count before this write takes the newest position and evicts.
    this.flushMarks();
    this.#sql.put.run(this.namespace, key, text, Math.round(now + ttl * 1000), this.namespace);
    const { n } = this.#sql.count.get(this.namespace) as { n: number };
    if (n <= this.#options.maxSize) return;
    for (const old of this.#sql.oldest.all(this.namespace, n - this.#options.maxSize) as { key: string; expires_at: number }[]) {
      this.#sql.delete.run(this.namespace, old.key);
      // Dropping an entry that had expired anyway is no eviction.
      if (old.expires_at > now) this.#stats.evictions += 1;
    }
  }

  async delete(key: string): Promise<boolean> {
    this.flushMarks();
    const live = this.#sql.deleteLive.run(this.namespace, key, this.#options.now()).changes > 0;
    this.#sql.delete.run(this.namespace, key);
    return live;
  }

  async clear(): Promise<void> {
    this.#touched.clear();
    this.#cancelFlush();
    this.#sql.clear.run(this.namespace);
  }

  stats(): CacheStats {
    return this.#stats.snapshot();
  }

  resetStats(): void {
    this.#stats.reset();
  }

  async close(): Promise<void> {
    this.flushMarks();
    this.#handle.release();
  }
}
