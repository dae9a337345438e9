// Load test of `agentlib serve` over loopback HTTP against a bare node:http handler, in the same run.
//
//   npm run bench:serve                                    # builds dist/ first
//   node --import tsx bench/serve-load.ts --quick
//   node --import tsx bench/serve-load.ts --requests 20000 --concurrency 50 --rounds 3
//
// Servers run in a child process each (so the load generator's CPU is not charged to them):
//   agentlib  createServeApp() from dist/ + listen(), a zero-latency ScriptedProvider whose reply is
//             100 text deltas (a /stream response carries 100 text-delta events; /invoke the joined text)
//   bare      a node:http handler that reads the body, JSON.parses it, checks "prompt" and returns
//             the same /invoke JSON shape (same size) — or, for the stream scenario, writes 100 SSE
//             frames plus a run-end frame
//   agent     (with --agent-floor) a node:http handler that runs the same agent directly: a fresh
//             `new Agent(config)` per request with an AbortSignal (as any handler that can cancel
//             its runs), no serve layer. Its ratio is what the agent itself leaves; agentlib's
//             distance to it is the serve layer's cost.
// The load generator keeps `--concurrency` requests in flight over keep-alive sockets (node:http
// Agent, maxSockets = concurrency) until `--requests` have completed, and reports requests/s. Rounds
// alternate bare and agentlib; the ratio is agentlib / bare on the median requests/s.
// Each measurement also reports the server's CPU time per request (user + system, from the child's
// process.cpuUsage()), which the noise of a shared machine moves less than requests/s.
// RSS: a fresh agentlib server takes 1,000 requests, then 9,000 more (mixed /invoke and /stream).
// Its memory is taken twice at each point: hot (right after the load, after a full GC) and at rest
// (the server idles until V8's memory reducer has given back the young generation sized for the
// load, polled each second up to 30 s, then a full GC). Under load V8 doubles its new space (young
// generation) once enough bytes have survived scavenges, here at ~2-3k requests: +17 MB of RSS
// that is a buffer sized for the load, not a leak, and V8 releases it when the server idles. The
// target (< 10% growth from 1,000 to 10,000 requests, "no growth trend") is judged at rest, where
// the same server state is compared at both points; the hot figures, heapUsed and the new-space
// size are printed beside it. Target: /invoke ≥ 0.5× bare.
//
// Options: --quick (BENCH_QUICK=1), --requests N (20000; quick 4000), --concurrency C (50),
// --rounds R (3; quick 1), --agent-floor (also measure the agent-only handler), --json PATH
// (default bench/results/serve-load.json; --no-json), --check (exit 1 when a target is missed).
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent as HttpAgent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { getHeapSpaceStatistics } from 'node:v8';
import type * as AgentModule from '../lib/agent/index.js';
import type * as ServeModule from '../lib/serve/index.js';
import type * as TestModule from '../lib/test/index.js';
import { median } from './lib/measure.js';

const DELTAS = Array.from({ length: 100 }, (_, i) => `tok${i} `);
const TEXT = DELTAS.join('');
const INVOKE_TARGET = 0.5;
const RSS_TARGET = 0.1;

type Kind = 'agentlib' | 'bare' | 'agent';
type Scenario = 'invoke' | 'stream';
/** Memory after a full GC: RSS (what the target is about), the V8 heap in use, and V8's new space (young generation) size. */
interface MemorySample {
  rss: number;
  heapUsed: number;
  newSpace: number;
  /** At rest: how long the server idled before the sample. */
  restedMs?: number;
}
type ChildMessage = { type: 'ready'; port: number } | ({ type: 'rss' } & MemorySample) | { type: 'cpu'; micros: number };
type ParentMessage = { type: 'cpu' } | { type: 'rss'; atRest: boolean };
/** A new space at most this size has been given back (V8 starts at 1-2 MB; under load it grows to 16-33 MB). */
const RESTING_NEW_SPACE = 4 * 1024 * 1024;
const REST_POLL_MS = 1000;
const REST_MAX_MS = 30_000;

// ---------------------------------------------------------------- server side (child process)

const dist = new URL('../dist/lib/', import.meta.url);

async function benchAgentConfig(): Promise<{ name: string; provider: InstanceType<typeof TestModule.ScriptedProvider>; model: string }> {
  const { ScriptedProvider } = (await import(new URL('test/index.js', dist).href)) as typeof TestModule;
  const provider = new ScriptedProvider({ record: false, loop: true, replies: [{ chunks: DELTAS, usage: { promptTokens: 10, completionTokens: 100 } }] });
  return { name: 'bench', provider, model: 'gpt-4o-mini' };
}

async function serveAgentlib(): Promise<number> {
  const { createServeApp, listen } = (await import(new URL('serve/index.js', dist).href)) as typeof ServeModule;
  const served = createServeApp({ agent: await benchAgentConfig(), maxConcurrency: 1000, keepAliveMs: 0, logError: () => undefined });
  const server = await listen(served, { port: 0 });
  return server.port;
}

/** The agent alone behind node:http: what any server running this agent per request pays at least. */
async function serveAgentOnly(): Promise<number> {
  const { Agent } = (await import(new URL('agent/index.js', dist).href)) as typeof AgentModule;
  const config = await benchAgentConfig();
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => {
      const { prompt } = JSON.parse(Buffer.concat(parts).toString('utf8')) as { prompt: string };
      const options = { signal: new AbortController().signal };
      if (req.url === '/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
        const stream = new Agent(config).stream(prompt, options);
        void (async () => {
          for await (const event of stream) if (event.type !== 'run-end') res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
          const result = await stream.result;
          res.end(`event: run-end\ndata: ${JSON.stringify({ content: result.content, run_id: result.runId, status: result.status })}\n\n`);
        })();
        return;
      }
      void new Agent(config).run(prompt, options).then((result) => {
        const usage = result.usage;
        const body = { content: result.content, tool_calls: [], iterations: result.iterations, usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.totalTokens, cost_usd: usage.totalCostUsd }, run_id: result.runId, status: result.status };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function invokeBody(): string {
  return JSON.stringify({
    content: TEXT,
    tool_calls: [],
    iterations: 1,
    usage: { prompt_tokens: 10, completion_tokens: 100, total_tokens: 110, cost_usd: 0.0000615 },
    run_id: `run_${Math.random().toString(16).slice(2)}${Math.random().toString(16).slice(2)}`,
    status: 'completed',
  });
}

async function serveBare(): Promise<number> {
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => {
      let prompt: unknown;
      try {
        prompt = (JSON.parse(Buffer.concat(parts).toString('utf8')) as { prompt?: unknown }).prompt;
      } catch {
        prompt = undefined;
      }
      if (typeof prompt !== 'string') {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"type":"invalid_request_error","message":"bad"}}');
        return;
      }
      if (req.url === '/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
        for (const text of DELTAS) res.write(`event: text-delta\ndata: ${JSON.stringify({ type: 'text-delta', runId: 'run_x', timestamp: Date.now(), iteration: 1, text })}\n\n`);
        res.end(`event: run-end\ndata: ${invokeBody()}\n\n`);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(invokeBody());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function childMain(kind: Kind): Promise<void> {
  const port = kind === 'agentlib' ? await serveAgentlib() : kind === 'agent' ? await serveAgentOnly() : await serveBare();
  const gc = (globalThis as { gc?: () => void }).gc;
  const newSpaceSize = (): number => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
  const sample = (): MemorySample => {
    gc?.();
    gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    return { rss, heapUsed, newSpace: newSpaceSize() };
  };
  /** Idles until V8 has given back the young generation (or REST_MAX_MS passed), then samples. */
  const atRest = async (): Promise<MemorySample> => {
    const started = Date.now();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, REST_POLL_MS));
      // V8 shrinks the new space in a GC that finds the allocation rate low: each poll collects.
      const memory = sample();
      if (memory.newSpace <= RESTING_NEW_SPACE || Date.now() - started >= REST_MAX_MS) return { ...memory, restedMs: Date.now() - started };
    }
  };
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ type: 'cpu', micros: user + system } satisfies ChildMessage);
    }
    if (message.type === 'rss') {
      if (message.atRest) void atRest().then((memory) => process.send?.({ type: 'rss', ...memory } satisfies ChildMessage));
      else process.send?.({ type: 'rss', ...sample() } satisfies ChildMessage);
    }
  });
  process.send?.({ type: 'ready', port } satisfies ChildMessage);
}

// ---------------------------------------------------------------- load generator (parent)

interface ServerHandle {
  port: number;
  child: ChildProcess;
  /** Memory after a full GC: now (hot), or once the server has idled to rest. */
  memory(atRest: boolean): Promise<MemorySample>;
  /** The server's CPU time so far (µs, user + system). */
  cpu(): Promise<number>;
  stop(): void;
}

function ask(child: ChildProcess, message: { type: 'cpu' }): Promise<number>;
function ask(child: ChildProcess, message: { type: 'rss'; atRest: boolean }): Promise<MemorySample>;
function ask(child: ChildProcess, message: ParentMessage): Promise<number | MemorySample> {
  return new Promise((done) => {
    const onMessage = (reply: ChildMessage): void => {
      if (reply.type !== message.type) return;
      child.off('message', onMessage);
      if (reply.type === 'rss') {
        const { type: _type, ...memory } = reply;
        done(memory);
      } else done(reply.type === 'cpu' ? reply.micros : Number.NaN);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

function startServer(kind: Kind): Promise<ServerHandle> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', kind], { execArgv: ['--import', 'tsx', '--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${String(code)})`)));
    child.once('message', (message: ChildMessage) => {
      if (message.type !== 'ready') return;
      resolve({
        port: message.port,
        child,
        memory: (atRest) => ask(child, { type: 'rss', atRest }),
        cpu: () => ask(child, { type: 'cpu' }),
        stop: () => {
          child.removeAllListeners('exit');
          child.kill();
        },
      });
    });
  });
}

const BODY = JSON.stringify({ prompt: 'What is the answer?' });

function oneRequest(agent: HttpAgent, port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => void (bytes += chunk.length));
      res.on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`${path}: HTTP ${String(res.statusCode)}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(BODY);
  });
}

/** Completes `total` requests with `concurrency` in flight; returns requests/s and bytes of the last response. */
async function load(port: number, scenario: Scenario, total: number, concurrency: number): Promise<{ rps: number; bytes: number }> {
  const agent = new HttpAgent({ keepAlive: true, maxSockets: concurrency });
  const path = scenario === 'invoke' ? '/invoke' : '/stream';
  let started = 0;
  let bytes = 0;
  const worker = async (): Promise<void> => {
    while (started < total) {
      started++;
      bytes = await oneRequest(agent, port, path);
    }
  };
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  agent.destroy();
  return { rps: total / seconds, bytes };
}

async function parentMain(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      serve: { type: 'string' },
      quick: { type: 'boolean', default: process.env.BENCH_QUICK === '1' },
      requests: { type: 'string' },
      concurrency: { type: 'string' },
      rounds: { type: 'string' },
      json: { type: 'string' },
      'no-json': { type: 'boolean', default: false },
      'agent-floor': { type: 'boolean', default: false },
      check: { type: 'boolean', default: false },
    },
  });
  const int = (value: string | undefined, fallback: number): number => {
    const n = value === undefined ? fallback : Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`expected a positive integer, got ${value}`);
    return n;
  };
  const requests = int(args.requests, args.quick ? 4000 : 20_000);
  const concurrency = int(args.concurrency, 50);
  const rounds = int(args.rounds, args.quick ? 1 : 3);
  const warmup = Math.min(2000, Math.ceil(requests / 5));
  console.log(`serve-load: ${requests} requests per measurement, ${concurrency} concurrent, ${rounds} round(s), node ${process.version}, ${cpus().length} CPUs`);

  const kinds: Kind[] = args['agent-floor'] ? ['bare', 'agent', 'agentlib'] : ['bare', 'agentlib'];
  const perKind = (): Record<Kind, number[]> => ({ agentlib: [], bare: [], agent: [] });
  const results: Record<Scenario, Record<Kind, number[]>> = { invoke: perKind(), stream: perKind() };
  const cpuPerRequest: Record<Scenario, Record<Kind, number[]>> = { invoke: perKind(), stream: perKind() };
  const sizes: Record<string, number> = {};
  for (let round = 1; round <= rounds; round++) {
    const order: Kind[] = round % 2 === 1 ? kinds : [...kinds].reverse();
    for (const kind of order) {
      const server = await startServer(kind);
      try {
        for (const scenario of ['invoke', 'stream'] as const) {
          await load(server.port, scenario, warmup, concurrency);
          const cpuBefore = await server.cpu();
          const { rps, bytes } = await load(server.port, scenario, requests, concurrency);
          const cpu = ((await server.cpu()) - cpuBefore) / requests;
          results[scenario][kind].push(rps);
          cpuPerRequest[scenario][kind].push(cpu);
          sizes[`${kind} ${scenario}`] = bytes;
          console.log(`  round ${round} ${kind.padEnd(8)} /${scenario.padEnd(6)} ${rps.toFixed(0).padStart(7)} req/s  ${cpu.toFixed(1).padStart(6)} µs server CPU/request  (${bytes} bytes per response)`);
        }
      } finally {
        server.stop();
      }
    }
  }

  // RSS trend on a fresh agentlib server.
  const fresh = await startServer('agentlib');
  let hot1k: MemorySample;
  let hot10k: MemorySample;
  let at1k: MemorySample;
  let at10k: MemorySample;
  try {
    await load(fresh.port, 'invoke', 500, concurrency);
    await load(fresh.port, 'stream', 500, concurrency);
    hot1k = await fresh.memory(false);
    at1k = await fresh.memory(true);
    for (let i = 0; i < 9; i++) {
      await load(fresh.port, 'invoke', 500, concurrency);
      await load(fresh.port, 'stream', 500, concurrency);
    }
    hot10k = await fresh.memory(false);
    at10k = await fresh.memory(true);
  } finally {
    fresh.stop();
  }

  const med = (scenario: Scenario, kind: Kind): number => median(results[scenario][kind]);
  const cpuMed = (scenario: Scenario, kind: Kind): string => `${median(cpuPerRequest[scenario][kind]).toFixed(0)} µs`;
  const invokeRatio = med('invoke', 'agentlib') / med('invoke', 'bare');
  const streamRatio = med('stream', 'agentlib') / med('stream', 'bare');
  const rss1k = at1k.rss;
  const rss10k = at10k.rss;
  const growth = (rss10k - rss1k) / rss1k;
  const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  console.log('');
  console.log(`/invoke  agentlib ${med('invoke', 'agentlib').toFixed(0)} req/s · bare node:http ${med('invoke', 'bare').toFixed(0)} req/s · ratio ${invokeRatio.toFixed(2)}× (target ≥ ${INVOKE_TARGET}×) ${invokeRatio >= INVOKE_TARGET ? 'ok' : 'MISSED'} · server CPU/request ${cpuMed('invoke', 'agentlib')} vs ${cpuMed('invoke', 'bare')}`);
  console.log(`/stream  agentlib ${med('stream', 'agentlib').toFixed(0)} req/s · bare node:http ${med('stream', 'bare').toFixed(0)} req/s · ratio ${streamRatio.toFixed(2)}× (100 text deltas per response) · server CPU/request ${cpuMed('stream', 'agentlib')} vs ${cpuMed('stream', 'bare')}`);
  if (args['agent-floor']) {
    for (const scenario of ['invoke', 'stream'] as const) {
      const floor = med(scenario, 'agent') / med(scenario, 'bare');
      console.log(`/${scenario.padEnd(7)} the agent alone on node:http ${med(scenario, 'agent').toFixed(0)} req/s · ratio ${floor.toFixed(2)}× · server CPU/request ${cpuMed(scenario, 'agent')}`);
    }
  }
  const hotGrowth = (hot10k.rss - hot1k.rss) / hot1k.rss;
  const rested = (sample: MemorySample): string => `${((sample.restedMs ?? 0) / 1000).toFixed(0)} s`;
  console.log(`RSS      at rest: after 1,000 requests ${mb(rss1k)} · after 10,000 ${mb(rss10k)} · growth ${(growth * 100).toFixed(1)}% (target < ${RSS_TARGET * 100}%) ${growth < RSS_TARGET ? 'ok' : 'MISSED'} (idled ${rested(at1k)} / ${rested(at10k)}; new space ${mb(at1k.newSpace)} / ${mb(at10k.newSpace)})`);
  // What moves RSS: the heap in use (a leak) or V8's young generation growing (it doubles once enough has survived scavenges).
  console.log(`         hot: after 1,000 ${mb(hot1k.rss)} · after 10,000 ${mb(hot10k.rss)} · growth ${(hotGrowth * 100).toFixed(1)}% · V8 new space ${mb(hot1k.newSpace)} → ${mb(hot10k.newSpace)} · heapUsed ${mb(hot1k.heapUsed)} → ${mb(hot10k.heapUsed)}`);

  if (!args['no-json']) {
    const path = args.json ?? fileURLToPath(new URL('results/serve-load.json', import.meta.url));
    mkdirSync(dirname(path), { recursive: true });
    const document = {
      version: 1,
      node: process.version,
      cpus: cpus().length,
      requests,
      concurrency,
      rounds,
      rps: results,
      cpuMicrosPerRequest: cpuPerRequest,
      responseBytes: sizes,
      invokeRatio,
      streamRatio,
      ...(args['agent-floor'] ? { agentFloorRatio: { invoke: med('invoke', 'agent') / med('invoke', 'bare'), stream: med('stream', 'agent') / med('stream', 'bare') } } : {}),
      rss: { atRest: { after1k: at1k, after10k: at10k, growth }, hot: { after1k: hot1k, after10k: hot10k, growth: hotGrowth } },
      targets: { invokeRatio: INVOKE_TARGET, rssGrowth: RSS_TARGET },
    };
    writeFileSync(path, `${JSON.stringify(document, null, 2)}\n`);
    console.log(`results: ${relative(process.cwd(), path)}`);
  }
  if (args.check && (invokeRatio < INVOKE_TARGET || growth >= RSS_TARGET)) process.exitCode = 1;
}

const serveKind = process.argv.includes('--serve') ? process.argv[process.argv.indexOf('--serve') + 1] : undefined;
if (serveKind === 'agentlib' || serveKind === 'bare' || serveKind === 'agent') await childMain(serveKind);
else await parentMain();
