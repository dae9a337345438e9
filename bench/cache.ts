// What a cache hit costs per backend, against the backend's raw client doing the same read
// (Map.get; a prepared better-sqlite3 SELECT + JSON.parse; node-redis GET + JSON.parse), and what
// an agent run served from the cache costs against an uncached run on a zero-latency provider.
// The value is a typical cached LLM reply (message with a tool call, usage). Each figure is the
// median of `--rounds` samples of `--count` reads, rounds interleaved.
//   node --import tsx bench/cache.ts [--count 2000] [--rounds 7] [--redis URL] [--check] [--json PATH | --no-json]
// Redis: --redis, else AGENTLIB_TEST_REDIS_URL, else skipped (start one: redis-server --port 6390).
// Target: every backend's hit within 1.5× of its raw client's read (the SQLite and Redis ones;
// the in-memory raw read is a Map.get of nanoseconds, reported but not held to the ratio).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent } from '../lib/agent/agent.js';
import { InMemoryCache, RedisCache, SQLiteCache, type Cache } from '../lib/cache/index.js';
import { ScriptedProvider } from '../lib/providers/scripted.js';
import { acquireSqlite, closeAllStorage } from '../lib/storage/index.js';
import { acquireRedis } from '../lib/storage/redis-pool.js';
import { median, sample } from './lib/measure.js';

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '7' },
    redis: { type: 'string' },
    check: { type: 'boolean', default: false },
    json: { type: 'string', default: 'bench/results/cache.json' },
    'no-json': { type: 'boolean', default: false },
  },
});
const count = Number(args.count);
const rounds = Number(args.rounds);
const MAX_RATIO = 1.5;
const value = {
  message: { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', toolName: 'get_weather', parameters: { city: 'Graz', unit: 'c' } }] },
  reasoning: '',
  usage: { promptTokens: 412, completionTokens: 23, totalTokens: 435, costUsd: 0.0000756 },
  finishReason: 'tool-calls',
};
const KEY = 'llm:0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0';

interface Pair {
  backend: string;
  cacheUs: number;
  rawUs: number;
  ratio: number;
  held: boolean;
}

/** Compares hits of `keys` (read in turn) through the cache and through the raw client. */
async function compare(backend: string, cache: Cache, raw: (key: string) => unknown, held: boolean, keys: readonly string[] = [KEY]): Promise<Pair> {
  for (const key of keys) await cache.set(key, value, 3_600);
  const first = keys[0] ?? KEY;
  if ((await cache.get(first)) === undefined || raw(first) === undefined) throw new Error(`${backend}: the entry is missing`);
  let next = 0;
  const nextKey = (): string => keys[next++ % keys.length] ?? KEY;
  const cacheTimes: number[] = [];
  const rawTimes: number[] = [];
  await sample(() => cache.get(nextKey()), count); // warm up
  await sample(async () => raw(nextKey()), count);
  for (let round = 0; round < rounds; round++) {
    cacheTimes.push((await sample(() => cache.get(nextKey()), count)).wallUs);
    rawTimes.push((await sample(async () => raw(nextKey()), count)).wallUs);
  }
  const cacheUs = median(cacheTimes);
  const rawUs = median(rawTimes);
  return { backend, cacheUs, rawUs, ratio: cacheUs / rawUs, held };
}

const work = mkdtempSync(join(tmpdir(), 'agentlib-bench-cache-'));
const pairs: Pair[] = [];
try {
  const memory = new InMemoryCache();
  const map = new Map([[KEY, value]]);
  pairs.push(await compare('memory', memory, (key) => map.get(key), false));

  const file = join(work, 'cache.db');
  const sqlite = new SQLiteCache(file);
  const handle = acquireSqlite(file);
  const select = handle.db.prepare('SELECT value FROM agentlib_cache WHERE namespace = ? AND key = ?');
  const rawSqlite = (key: string): unknown => JSON.parse((select.get('default', key) as { value: string }).value) as unknown;
  pairs.push(await compare('sqlite', sqlite, rawSqlite, true));
  // Hits spread over 1,000 entries: every one needs its own LRU write (batched, see SQLiteCache touchBatch).
  const spread = Array.from({ length: 1_000 }, (_, i) => `${KEY.slice(0, -4)}${String(i).padStart(4, '0')}`);
  pairs.push(await compare('sqlite ×1000 keys', sqlite, rawSqlite, true, spread));
  // The unbatched touch (an UPDATE on every hit, as before the batching), for reference.
  const eager = new SQLiteCache(file, { touchBatch: 1 });
  pairs.push(await compare('sqlite touchBatch 1', eager, rawSqlite, false));
  handle.release();
  await eager.close();
  await sqlite.close();

  const redisUrl = args.redis ?? process.env['AGENTLIB_TEST_REDIS_URL'];
  if (redisUrl === undefined) console.log('redis: skipped (no --redis URL and no AGENTLIB_TEST_REDIS_URL)');
  else {
    const prefix = `agentlib-bench:${process.pid}:`;
    const redis = new RedisCache(redisUrl, { keyPrefix: prefix });
    const client = (await acquireRedis(redisUrl)).client;
    const rawKey = `${prefix}default:k:${KEY}`;
    const cacheTimes: number[] = [];
    const rawTimes: number[] = [];
    await redis.set(KEY, value, 3_600);
    const rawGet = async (): Promise<unknown> => JSON.parse((await client.get(rawKey)) ?? 'null') as unknown;
    await sample(() => redis.get(KEY), count);
    await sample(rawGet, count);
    for (let round = 0; round < rounds; round++) {
      cacheTimes.push((await sample(() => redis.get(KEY), count)).wallUs);
      rawTimes.push((await sample(rawGet, count)).wallUs);
    }
    pairs.push({ backend: 'redis', cacheUs: median(cacheTimes), rawUs: median(rawTimes), ratio: median(cacheTimes) / median(rawTimes), held: true });
    await redis.clear();
    await redis.close();
  }

  // An agent run answered from the cache against one that calls a zero-latency provider.
  const uncachedProvider = new ScriptedProvider({ replies: ['Sunny, 21 °C.'], loop: true, record: false, usage: { promptTokens: 40, completionTokens: 6 } });
  const uncached = new Agent({ provider: uncachedProvider });
  const cachedProvider = new ScriptedProvider({ replies: ['Sunny, 21 °C.'], loop: true, record: false, usage: { promptTokens: 40, completionTokens: 6 } });
  const cached = new Agent({ provider: cachedProvider, cache: new InMemoryCache() });
  await cached.ask('weather in Graz?');
  const runs = Math.max(50, Math.round(count / 10));
  const agentCached: number[] = [];
  const agentUncached: number[] = [];
  await sample(() => cached.ask('weather in Graz?'), runs);
  await sample(() => uncached.ask('weather in Graz?'), runs);
  for (let round = 0; round < rounds; round++) {
    agentCached.push((await sample(() => cached.ask('weather in Graz?'), runs)).wallUs);
    agentUncached.push((await sample(() => uncached.ask('weather in Graz?'), runs)).wallUs);
  }
  if (cachedProvider.calls !== 1) throw new Error(`the cached agent called its provider ${cachedProvider.calls} times`);

  console.log(`cache: ${count} reads × ${rounds} rounds (median µs per read), node ${process.version}`);
  console.log(`${'backend'.padEnd(20)}${'cache.get'.padStart(12)}${'raw read'.padStart(12)}${'ratio'.padStart(9)}`);
  for (const p of pairs) console.log(`${p.backend.padEnd(20)}${p.cacheUs.toFixed(2).padStart(12)}${p.rawUs.toFixed(2).padStart(12)}${`${p.ratio.toFixed(2)}×`.padStart(9)}${p.held ? '' : '  (not held to the target)'}`);
  const cachedUs = median(agentCached);
  const uncachedUs = median(agentUncached);
  console.log(`agent.ask: served from an InMemoryCache ${cachedUs.toFixed(1)} µs, uncached on a zero-latency provider ${uncachedUs.toFixed(1)} µs (${(cachedUs / uncachedUs).toFixed(2)}×)`);
  const met = pairs.filter((p) => p.held).every((p) => p.ratio <= MAX_RATIO);
  console.log(`target: every held backend's hit ≤ ${MAX_RATIO}× its raw read: ${met ? 'met' : 'MISSED'}`);
  if (!args['no-json']) {
    mkdirSync(dirname(args.json), { recursive: true });
    writeFileSync(args.json, `${JSON.stringify({ version: 1, count, rounds, node: process.version, backends: pairs, agent: { cachedUs, uncachedUs }, target: { maxRatio: MAX_RATIO, met } }, null, 2)}\n`);
  }
  if (args.check && !met) process.exitCode = 1;
} finally {
  await closeAllStorage();
  rmSync(work, { recursive: true, force: true });
}
