// Save + load of a 200-message session (tool calls, tool results, reasoning parts) per session
// store backend, against the same JSON written and read with the raw client in the same script:
// better-sqlite3 INSERT/SELECT, redis SET/GET, and fs/promises write-then-rename/read for the JSON files.
// Rounds interleave the backends (so other load affects all alike); the median of the rounds is
// reported, and the ratio store / raw.
// Every save writes a session that differs from the one before (its last message carries a
// counter), for the store and the raw client alike, as in use: a conversation changes between two
// saves. Writing the very same bytes again is nearly free for SQLite (it leaves unchanged pages
// alone), while the store's row always changes (revision, updated_at): `--payload same` measures
// that case anyway.
//   node --import tsx bench/sessions.ts [--rounds 200] [--payload changing|same] [--check] [--json PATH | --no-json]
// Redis: AGENTLIB_BENCH_REDIS_URL, else a throwaway redis-server on a loopback port (skipped when
// the binary is missing). Target: every backend within 1.5× of its raw client.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Message } from '../lib/core/message.js';
import { JsonFileSessionStore } from '../lib/sessions/json-file-session-store.js';
import { RedisSessionStore } from '../lib/sessions/redis-session-store.js';
import { SQLiteSessionStore } from '../lib/sessions/sqlite-session-store.js';
import type { SessionStore } from '../lib/sessions/types.js';
import { acquireSqlite, closeAllStorage } from '../lib/storage/index.js';
import { acquireRedis } from '../lib/storage/redis-pool.js';
import { findGc, median } from './lib/measure.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '200' },
    check: { type: 'boolean', default: false },
    payload: { type: 'string', default: 'changing' },
    json: { type: 'string', default: 'bench/results/sessions.json' },
    'no-json': { type: 'boolean', default: false },
  },
});
const rounds = Number(args.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a positive integer, got ${args.rounds}`);
const TARGET_RATIO = 1.5;
if (args.payload !== 'changing' && args.payload !== 'same') throw new Error(`--payload must be changing or same, got ${args.payload}`);

/** 200 messages: 40 turns of user, assistant with a tool call (and reasoning), tool result, answer, plus a follow-up. */
function conversation(): Message[] {
  const messages: Message[] = [];
  for (let turn = 0; messages.length < 200; turn++) {
    messages.push({ role: 'user', content: `Where is order ${turn}? It was placed last week and I still have no tracking number.` });
    messages.push({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: `call_${turn}`, toolName: 'lookup_order', parameters: { orderId: String(turn), include: ['status', 'tracking'] }, thoughtSignature: 'CiQBjz1rX+/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789==' }],
      reasoningParts: [{ type: 'thinking', provider: 'anthropic', text: 'The user wants the order status; look it up.', signature: 'EqQBCkYIARgCKkB+/signature==' }],
    });
    messages.push({ role: 'tool', content: JSON.stringify({ orderId: String(turn), status: 'shipped', tracking: `1Z999AA1${turn}`, eta: '2026-12-01' }), toolCallId: `call_${turn}`, toolName: 'lookup_order' });
    messages.push({ role: 'assistant', content: `Order ${turn} has shipped; the tracking number is 1Z999AA1${turn} and it should arrive on December 1.` });
    messages.push({ role: 'user', content: 'Thanks!' });
  }
  return messages.slice(0, 200);
}

interface Pair {
  name: string;
  store: () => Promise<void>;
  raw: () => Promise<void>;
  close: () => Promise<void>;
}

async function startRedis(): Promise<{ url: string; child?: ChildProcess } | undefined> {
  const given = process.env.AGENTLIB_BENCH_REDIS_URL;
  if (given !== undefined && given !== '') return { url: given };
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const failed = await new Promise<boolean>((resolve) => {
    child.once('error', () => resolve(true));
    setTimeout(() => resolve(false), 300);
  });
  if (failed) return undefined;
  const url = `redis://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      const handle = await acquireRedis(url);
      await handle.release();
      return { url, child };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  child.kill();
  return undefined;
}

let messages = conversation();
let saves = 0;
/** The session the next save writes: the last message carries a counter (unless --payload same). */
function nextPayload(): void {
  if (args.payload === 'same') return;
  saves += 1;
  messages = [...messages.slice(0, -1), { role: 'user', content: `Thanks! (save ${saves})` }];
}
/** Throws unless `loaded` is the session just saved: 200 messages, the same last one. */
function expectSaved(loaded: readonly Message[] | undefined, what: string): void {
  if (loaded?.length !== 200 || loaded[199]?.content !== messages[199]?.content) throw new Error(`${what} did not load the session just saved`);
}
const dir = mkdtempSync(join(tmpdir(), 'agentlib-bench-sessions-'));
const pairs: Pair[] = [];

// SQLite: the store on one file, the raw client on another, both opened by the storage module's
// acquireSqlite (the same connection settings: WAL, synchronous NORMAL, busy timeout). What the
// store does beyond the raw INSERT/SELECT (its revision check, TTL and timestamp columns, the
// index that orders list()) is the store's cost.
{
  const store: SessionStore = new SQLiteSessionStore({ path: join(dir, 'store.db') });
  const rawHandle = acquireSqlite(join(dir, 'raw.db'));
  const db = rawHandle.db;
  db.exec('CREATE TABLE sessions (id TEXT PRIMARY KEY, data TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO sessions (id, data) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data');
  const select = db.prepare('SELECT data FROM sessions WHERE id = ?');
  pairs.push({
    name: 'SQLite',
    store: async () => {
      await store.save('bench', { messages });
      expectSaved((await store.load('bench'))?.messages, 'the SQLite store');
    },
    raw: async () => {
      insert.run('bench', JSON.stringify(messages));
      expectSaved(JSON.parse((select.get('bench') as { data: string }).data) as Message[], 'raw SQLite');
    },
    close: async () => {
      await store.close();
      rawHandle.release();
    },
  });
}

// JSON files: the store against writeFile + rename and readFile of the same JSON, through
// node:fs/promises as the store does (a server must not block its event loop on disk I/O; the
// synchronous calls skip the thread pool and would compare blocking I/O with non-blocking).
{
  const store: SessionStore = new JsonFileSessionStore({ directory: join(dir, 'files') });
  const rawDir = join(dir, 'raw-files');
  mkdirSync(rawDir, { recursive: true });
  pairs.push({
    name: 'JSON files',
    store: async () => {
      await store.save('bench', { messages });
      expectSaved((await store.load('bench'))?.messages, 'the file store');
    },
    raw: async () => {
      const path = join(rawDir, 'bench.json');
      await writeFile(`${path}.tmp`, JSON.stringify(messages));
      await rename(`${path}.tmp`, path);
      expectSaved(JSON.parse(await readFile(path, 'utf8')) as Message[], 'raw files');
    },
    close: () => store.close(),
  });
}

const redis = await startRedis();
if (redis === undefined) console.log('Redis: skipped (no redis-server binary and no AGENTLIB_BENCH_REDIS_URL)');
else {
  const store: SessionStore = new RedisSessionStore({ url: redis.url, keyPrefix: 'bench:store' });
  const handle = await acquireRedis(redis.url);
  pairs.push({
    name: 'Redis',
    store: async () => {
      await store.save('bench', { messages });
      expectSaved((await store.load('bench'))?.messages, 'the Redis store');
    },
    raw: async () => {
      await handle.client.set('bench:raw', JSON.stringify(messages));
      const text = await handle.client.get('bench:raw');
      expectSaved(JSON.parse(String(text)) as Message[], 'raw Redis');
    },
    close: async () => {
      await store.close();
      await handle.release();
    },
  });
}

async function timed(run: () => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const gc = findGc();
for (const pair of pairs) {
  for (let i = 0; i < 20; i++) {
    nextPayload();
    await (i % 2 === 0 ? pair.store() : pair.raw()); // warm up
  }
}
const times = new Map(pairs.map((pair) => [pair.name, { store: [] as number[], raw: [] as number[] }]));
for (let round = 0; round < rounds; round++) {
  for (const pair of pairs) {
    const entry = times.get(pair.name)!;
    // Alternate which goes first, so neither always runs on a warmer cache.
    const order = round % 2 === 0 ? (['store', 'raw'] as const) : (['raw', 'store'] as const);
    for (const which of order) {
      nextPayload();
      gc?.();
      entry[which].push(await timed(pair[which]));
    }
  }
}

console.log(`sessions: save + load of a 200-message session (${Buffer.byteLength(JSON.stringify(messages))} bytes of JSON, payload ${args.payload}), ${rounds} rounds, node ${process.version}, ${cpus()[0]?.model ?? 'cpu'}, load ${loadavg()[0]?.toFixed(2)}`);
const results = pairs.map((pair) => {
  const entry = times.get(pair.name)!;
  const storeMs = median(entry.store);
  const rawMs = median(entry.raw);
  return { backend: pair.name, storeMs, rawMs, ratio: storeMs / rawMs };
});
for (const r of results) {
  console.log(`${r.backend.padEnd(11)} store ${r.storeMs.toFixed(3).padStart(8)} ms   raw ${r.rawMs.toFixed(3).padStart(8)} ms   ratio ${r.ratio.toFixed(2)}×  ${r.ratio <= TARGET_RATIO ? 'ok' : `over the ${TARGET_RATIO}× target`}`);
}
for (const pair of pairs) await pair.close();
await closeAllStorage();
redis?.child?.kill();
rmSync(dir, { recursive: true, force: true });
if (!args['no-json']) {
  mkdirSync(dirname(args.json), { recursive: true });
  writeFileSync(args.json, `${JSON.stringify({ bench: 'sessions', rounds, payload: args.payload, targetRatio: TARGET_RATIO, node: process.version, results }, null, 2)}\n`);
}
if (args.check) {
  const over = results.filter((r) => r.ratio > TARGET_RATIO);
  console.log(over.length === 0 ? `check: every backend within ${TARGET_RATIO}×` : `check failed: ${over.map((r) => `${r.backend} ${r.ratio.toFixed(2)}×`).join(', ')} over ${TARGET_RATIO}×`);
  if (over.length > 0) process.exitCode = 1;
}
