// Streaming overhead of agentlib against the raw OpenAI SDK stream, over loopback HTTP, same server,
// same bytes: a synthetic Chat Completions stream of N text chunks (bench/stream/server.ts, run in
// a child process so its CPU is not charged to the client).
//
//   npm run bench:stream                                   # builds dist/ first
//   node --import tsx bench/provider-stream.ts --quick
//   node --import tsx bench/provider-stream.ts --chunks 2000 --samples 40
//
// Contenders: (1) raw SDK — `openai.chat.completions.create({ stream: true })` iterated directly;
// (2) agentlib provider — `new OpenAIProvider({ baseURL }).stream(request)` iterated; (3) agentlib
// agent — `new Agent({ provider }).stream('hi')` iterated (all events: trace, text-delta, …), reset
// after each run. All three send the same request body (checked by size on the server).
// Per run: (a) time to the first text — the first chunk with `delta.content` (raw) / the first
// `text-delta` (agentlib) — measured from the server's first body write (the server reports its
// process.hrtime.bigint(), a system-wide monotonic clock on Linux, on stdout) and from just before
// the request; (b) the whole stream's wall time and client-process CPU time, divided by N
// (per-chunk µs). Runs interleave the contenders; medians over K samples of one run each; ratios are
// against the raw SDK. Target: agentlib provider and agent ≤ 1.1× raw on (a) and (b): (b) judged on
// the median of paired per-round ratios (each round runs all three back to back), (a) on the ratio
// of the medians over the runs that had no GC pause between the request and the first text (a
// PerformanceObserver records the pauses). On this 2-core VM a scavenge or an incremental-marking
// step lands in that ~1 ms window in 10–30 % of all runs, of any contender, and adds 1–18 ms: the
// all-runs medians then flip by ±20 % from run to run with which contender was hit more often.
// Both figures are printed, with the number of runs each contender had paused.
//
// Round orders: the rounds go through all six orders of the three contenders (ORDERS), so that over
// every six rounds each contender runs twice in each position and right after each of the other two
// three times (never after itself). A run's speed depends on the run before it (presumably the GC
// and connection state it leaves behind): with a plain rotation (raw→provider→agent,
// provider→agent→raw, …) each contender follows the same one in two rounds of three, a fixed bias
// that does not average out. Measured in one process, same code, blocks of rounds alternating
// between the rotation and the reversed rotation (raw→agent→provider, …), four runs: the paired
// ratios vs raw came out higher under the rotation in 7 of the 8 comparisons (provider and agent;
// −1.5% to +7.6%, +3.5% on average); and one agent contender's per-chunk median ranged over 15%
// depending on which contender had run just before it.
//
// Options: --quick (BENCH_QUICK=1), --chunks N (2000), --samples K (42; quick 12; a multiple of 6
// keeps the orders balanced), --warmup W runs per contender (20; quick 5), --batch B (server:
// events per setImmediate, 16), --gc (a full GC before every timed run; off by default, see below),
// --json PATH (default bench/results/provider-stream.json; --no-json to skip), --check (exit 1 when
// the target is missed).
//
// agentlib is measured compiled (dist/, `npm run build`), like users run it; types come from lib/.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform } from 'node:os';
import { dirname, relative } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type * as OpenAIPackage from 'openai';
import type * as AgentModule from '../lib/agent/index.js';
import type * as OpenAIModule from '../lib/providers/openai/index.js';
import type { ProviderRequest } from '../lib/providers/spec.js';
import { findGc, median, quantile } from './lib/measure.js';
import { CHUNK_TEXT, MODEL } from './stream/server.js';

const TARGET_RATIO = 1.1;
const CONTENDERS = ['raw-sdk', 'agentlib-provider', 'agentlib-agent'] as const;
type Contender = (typeof CONTENDERS)[number];
/**
 * The contenders' order in round k is ORDERS[k % 6]: all six permutations, in a sequence where the
 * rounds' boundaries (last of one round → first of the next, cyclically) are also the six distinct
 * ordered pairs. Over six rounds every contender is in each position twice and directly follows each
 * other contender three times, never itself.
 */
const ORDERS: readonly (readonly Contender[])[] = [
  [0, 1, 2],
  [0, 2, 1],
  [2, 1, 0],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
].map((order) => order.map((index) => CONTENDERS[index]!));

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: process.env.BENCH_QUICK === '1' },
    chunks: { type: 'string' },
    samples: { type: 'string' },
    warmup: { type: 'string' },
    batch: { type: 'string' },
    json: { type: 'string' },
    'no-json': { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
    gc: { type: 'boolean', default: false },
  },
});
const positive = (value: string | undefined, fallback: number): number => {
  const parsed = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`expected a positive integer, got ${value}`);
  return parsed;
};
const CHUNKS = positive(args.chunks, 2000);
const SAMPLES = positive(args.samples, args.quick ? 12 : 42);
const WARMUP = positive(args.warmup, args.quick ? 5 : 20);
const BATCH = positive(args.batch, 16);

const dist = (path: string): string => new URL(`../dist/lib/${path}`, import.meta.url).href;
const { Agent } = (await import(dist('agent/index.js'))) as typeof AgentModule;
const { OpenAIProvider } = (await import(dist('providers/openai/index.js'))) as typeof OpenAIModule;
// The raw SDK is the very copy dist/ uses (the root node_modules/openai): a bare 'openai' here would
// resolve bench/node_modules/openai when the peers are installed — a second module instance with
// its own JIT feedback, which skews the comparison.
const { default: OpenAI } = (await import(new URL('../node_modules/openai/index.mjs', import.meta.url).href)) as typeof OpenAIPackage;

// --- the server (child process) -------------------------------------------------------------

const serverPath = fileURLToPath(new URL('./stream/server.ts', import.meta.url));
const child = spawn(process.execPath, ['--import', 'tsx', serverPath, '--chunks', String(CHUNKS), '--batch', String(BATCH)], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const serverLines: string[] = [];
let lineWaiter: (() => void) | undefined;
createInterface({ input: child.stdout }).on('line', (line) => {
  serverLines.push(line);
  lineWaiter?.();
});
async function serverLine(): Promise<string> {
  while (serverLines.length === 0) await new Promise<void>((resolve) => (lineWaiter = resolve));
  return serverLines.shift()!;
}
const { port } = JSON.parse(await serverLine()) as { port: number };
const baseURL = `http://127.0.0.1:${port}/v1`;

// --- the contenders ---------------------------------------------------------------------------

/** One run: ms to the first text (from the request, and from the server's first byte), total ms, client CPU µs, text length (checked). */
interface Run {
  /** performance.now() at the request and at the first text: the window checked for GC pauses. */
  windowMs: [number, number];
  firstTextMs: number;
  firstByteToTextMs: number;
  /** Size of the request body the server received. */
  requestBytes: number;
  totalMs: number;
  cpuUs: number;
  textLength: number;
}

const raw = new OpenAI({ baseURL, apiKey: 'x', maxRetries: 0 });
const provider = new OpenAIProvider({ baseURL, apiKey: 'x', model: MODEL });
// The same request body from all three (checked by size): system prompt, one user message, and the
// agent's defaults (temperature 0, max_tokens 1000) spelled out for the other two.
const SYSTEM = 'You are a benchmark.';
const PROMPT = 'hi';
// `agent.stream` continues the conversation: the agent is reset after every run (untimed), or each
// request would carry all earlier answers.
const agent = new Agent({ provider, systemPrompt: SYSTEM });
const request: ProviderRequest = { model: MODEL, system: SYSTEM, messages: [{ role: 'user', content: PROMPT }], temperature: 0, maxTokens: 1000 };

type Timed = (mark: () => void, add: (text: string) => void) => Promise<void>;

const bodies: Record<Contender, Timed> = {
  'raw-sdk': async (mark, add) => {
    const stream = await raw.chat.completions.create({
      model: MODEL,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: PROMPT },
      ],
      temperature: 0,
      max_tokens: 1000,
      stream: true, stream_options: { include_usage: true } });
    for await (const chunk of stream) {
      const text = chunk.choices[0]?.delta.content;
      if (text) {
        mark();
        add(text);
      }
    }
  },
  'agentlib-provider': async (mark, add) => {
    for await (const part of provider.stream(request)) {
      if (part.type === 'text-delta') {
        mark();
        add(part.text);
      }
    }
  },
  'agentlib-agent': async (mark, add) => {
    const stream = agent.stream(PROMPT);
    for await (const event of stream) {
      if (event.type === 'text-delta') {
        mark();
        add(event.text);
      }
    }
    await stream.result;
  },
};

async function runOnce(contender: Contender): Promise<Run> {
  let first = 0n;
  let firstPerf = 0;
  let textLength = 0;
  const cpuStart = process.cpuUsage();
  const startPerf = performance.now();
  const start = process.hrtime.bigint();
  await bodies[contender](
    () => {
      if (first === 0n) {
        first = process.hrtime.bigint();
        firstPerf = performance.now();
      }
    },
    (text) => {
      textLength += text.length;
    },
  );
  const end = process.hrtime.bigint();
  const cpu = process.cpuUsage(cpuStart);
  const { firstByteNs, requestBytes } = JSON.parse(await serverLine()) as { firstByteNs: string; requestBytes: number };
  return {
    windowMs: [startPerf, firstPerf],
    firstTextMs: Number(first - start) / 1e6,
    firstByteToTextMs: Number(first - BigInt(firstByteNs)) / 1e6,
    requestBytes,
    totalMs: Number(end - start) / 1e6,
    cpuUs: cpu.user + cpu.system,
    textLength,
  };
}

const expectedLength = CHUNKS * CHUNK_TEXT.length;
const requestSizes: Partial<Record<Contender, number>> = {};
async function checkedRun(contender: Contender): Promise<Run> {
  const run = await runOnce(contender);
  if (contender === 'agentlib-agent') agent.reset();
  if (run.textLength !== expectedLength) throw new Error(`${contender}: got ${run.textLength} text chars, expected ${expectedLength}`);
  const size = (requestSizes[contender] ??= run.requestBytes);
  if (run.requestBytes !== size) throw new Error(`${contender}: request body changed from ${size} to ${run.requestBytes} bytes`);
  const sizes = new Set(Object.values(requestSizes));
  if (sizes.size > 1) throw new Error(`the contenders sent different request bodies: ${JSON.stringify(requestSizes)}`);
  return run;
}

// --- measure ----------------------------------------------------------------------------------

// One full GC after the warm-up. Not before every run by default (--gc): a forced full GC right
// before a 2,000-chunk stream roughly doubles its time for every contender (the heap is shrunk and
// the run then pays for regrowing it and for the concurrent sweeper), which is not what users see.
const gc = findGc();
for (let i = 0; i < WARMUP; i++) for (const contender of CONTENDERS) await checkedRun(contender);
gc?.();

// GC pauses of the timed runs (see "First byte → text and GC pauses" in docs/benchmarks.md).
const pauses: { start: number; end: number }[] = [];
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
});
gcObserver.observe({ entryTypes: ['gc'] });

const runs: Record<Contender, Run[]> = { 'raw-sdk': [], 'agentlib-provider': [], 'agentlib-agent': [] };
for (let k = 0; k < SAMPLES; k++) {
  for (const contender of ORDERS[k % ORDERS.length]!) {
    if (args.gc) gc?.();
    runs[contender].push(await checkedRun(contender));
  }
}
child.stdin.end();
await new Promise((resolve) => setTimeout(resolve, 50)); // the observer's last entries
gcObserver.disconnect();
/** A GC pause overlapped the run's window from the request to the first text. */
const pausedBeforeText = (run: Run): boolean => pauses.some((pause) => pause.start < run.windowMs[1] && pause.end > run.windowMs[0]);

interface Stat {
  median: number;
  p25: number;
  p75: number;
}
interface Result {
  /** Server's first body write → first text at the client, µs (loopback + SDK + agentlib). */
  firstByteToTextUs: Stat;
  /** Request start → first text, µs. */
  firstTextUs: Stat;
  /** Whole stream wall time / N, µs. */
  perChunkWallUs: Stat;
  /** Client-process CPU time / N, µs. */
  perChunkCpuUs: Stat;
  /** First byte → text over the runs with no GC pause between the request and the first text (the judged figure). */
  firstByteToTextNoGcUs: Stat;
  /** How many runs had a GC pause before their first text (left out of firstByteToTextNoGcUs). */
  gcPausedRuns: number;
}
const round = (value: number): number => Math.round(value * 1000) / 1000;
const stat = (values: number[]): Stat => ({ median: round(median(values)), p25: round(quantile(values, 0.25)), p75: round(quantile(values, 0.75)) });
const results = Object.fromEntries(
  CONTENDERS.map((contender) => {
    const list = runs[contender];
    const result: Result = {
      firstByteToTextUs: stat(list.map((run) => run.firstByteToTextMs * 1000)),
      firstTextUs: stat(list.map((run) => run.firstTextMs * 1000)),
      perChunkWallUs: stat(list.map((run) => (run.totalMs * 1000) / CHUNKS)),
      perChunkCpuUs: stat(list.map((run) => run.cpuUs / CHUNKS)),
      firstByteToTextNoGcUs: stat(list.filter((run) => !pausedBeforeText(run)).map((run) => run.firstByteToTextMs * 1000)),
      gcPausedRuns: list.filter(pausedBeforeText).length,
    };
    return [contender, result];
  }),
) as Record<Contender, Result>;

const METRICS = ['firstByteToTextUs', 'firstTextUs', 'perChunkWallUs', 'perChunkCpuUs'] as const;
const ratios = Object.fromEntries(
  CONTENDERS.filter((name) => name !== 'raw-sdk').map((name) => [
    name,
    Object.fromEntries(METRICS.map((metric) => [metric, round(results[name][metric].median / results['raw-sdk'][metric].median)])),
  ]),
) as Record<Exclude<Contender, 'raw-sdk'>, Record<(typeof METRICS)[number], number>>;

// Paired ratios: each round runs every contender back to back, so dividing within a round cancels
// the slow drifts of a shared VM; the median over rounds is the robust figure the target uses.
const metricOf = (run: Run, metric: (typeof METRICS)[number]): number =>
  metric === 'firstByteToTextUs' ? run.firstByteToTextMs : metric === 'firstTextUs' ? run.firstTextMs : metric === 'perChunkWallUs' ? run.totalMs : run.cpuUs;
const paired = Object.fromEntries(
  CONTENDERS.filter((name) => name !== 'raw-sdk').map((name) => [
    name,
    Object.fromEntries(
      METRICS.map((metric) => [metric, round(median(runs[name].map((run, k) => metricOf(run, metric) / metricOf(runs['raw-sdk'][k]!, metric))))]),
    ),
  ]),
) as Record<Exclude<Contender, 'raw-sdk'>, Record<(typeof METRICS)[number], number>>;

// --- report -----------------------------------------------------------------------------------

const pad = (text: string, width: number): string => text.padStart(width);
const cell = (value: Stat, ratio?: number): string => `${value.median.toFixed(1)}${ratio === undefined ? '' : ` (${ratio.toFixed(2)}×)`}`;
const HEADINGS: Record<(typeof METRICS)[number], string> = {
  firstByteToTextUs: '1st byte→text µs',
  firstTextUs: 'request→text µs',
  perChunkWallUs: 'per-chunk wall µs',
  perChunkCpuUs: 'per-chunk CPU µs',
};
console.log(`provider-stream: ${CHUNKS} chunks, ${SAMPLES} samples, ${WARMUP} warm-up runs each, server batch ${BATCH}; node ${process.version}, ${cpus()[0]?.model ?? arch()}`);
console.log(`${'contender'.padEnd(20)}${METRICS.map((metric) => pad(HEADINGS[metric], 21)).join('')}`);
for (const name of CONTENDERS) {
  const ratio = name === 'raw-sdk' ? undefined : ratios[name];
  console.log(`${name.padEnd(20)}${METRICS.map((metric) => pad(cell(results[name][metric], ratio?.[metric]), 21)).join('')}`);
}
console.log(`(medians; ratio vs raw-sdk in parentheses; request body ${requestSizes['raw-sdk']} B for each)`);
const provRatios = paired['agentlib-provider'];
const agentRatios = paired['agentlib-agent'];
console.log(
  `paired (median of per-round ratios vs raw-sdk): provider ${METRICS.map((m) => provRatios[m].toFixed(2)).join(' / ')}; ` +
    `agent ${METRICS.map((m) => agentRatios[m].toFixed(2)).join(' / ')}`,
);
const noGc = (name: Contender): Stat => results[name].firstByteToTextNoGcUs;
const noGcRatio = (name: Exclude<Contender, 'raw-sdk'>): number => round(noGc(name).median / noGc('raw-sdk').median);
console.log(
  `first byte→text, runs without a GC pause before the text (median µs, runs left out): ` +
    CONTENDERS.map((name) => `${name} ${noGc(name).median.toFixed(1)}${name === 'raw-sdk' ? '' : ` (${noGcRatio(name).toFixed(2)}×)`} [${results[name].gcPausedRuns} of ${SAMPLES}]`).join(', '),
);
const judged = (name: Exclude<Contender, 'raw-sdk'>): { firstByteToText: number; perChunkWall: number } => ({ firstByteToText: noGcRatio(name), perChunkWall: paired[name].perChunkWallUs });
const within = (r: { firstByteToText: number; perChunkWall: number }): boolean => r.firstByteToText <= TARGET_RATIO && r.perChunkWall <= TARGET_RATIO;
const judgedProvider = judged('agentlib-provider');
const judgedAgent = judged('agentlib-agent');
const met = within(judgedProvider) && within(judgedAgent);
console.log(
  `target: ≤ ${TARGET_RATIO}× raw SDK on first byte→text (runs without a GC pause) and per-chunk wall (paired), for the provider and for the agent's text-delta events: ${met ? 'met' : 'MISSED'} ` +
    `(provider ${judgedProvider.firstByteToText.toFixed(2)}× / ${judgedProvider.perChunkWall.toFixed(2)}×; agent ${judgedAgent.firstByteToText.toFixed(2)}× / ${judgedAgent.perChunkWall.toFixed(2)}×)`,
);

if (!args['no-json']) {
  const path = args.json ?? fileURLToPath(new URL('./results/provider-stream.json', import.meta.url));
  mkdirSync(dirname(path), { recursive: true });
  const report = {
    benchmark: 'provider-stream',
    date: new Date().toISOString(),
    environment: { node: process.version, platform: platform(), arch: arch(), cpu: cpus()[0]?.model, cores: cpus().length, loadavg: loadavg() },
    config: { chunks: CHUNKS, samples: SAMPLES, warmup: WARMUP, serverBatch: BATCH, quick: args.quick, gcBeforeEachRun: args.gc, roundOrders: 'all six orders, balanced' },
    target: {
      against: 'raw-sdk',
      maxRatio: TARGET_RATIO,
      contenders: ['agentlib-provider', 'agentlib-agent'],
      metrics: {
        firstByteToTextNoGcUs: 'ratio of the medians over the runs without a GC pause between the request and the first text',
        perChunkWallUs: 'median of paired per-round ratios',
      },
      judged: { 'agentlib-provider': judgedProvider, 'agentlib-agent': judgedAgent },
      met,
    },
    requestBytes: requestSizes,
    results,
    ratios,
    pairedRatios: paired,
  };
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${relative(process.cwd(), path)}`);
}
if (args.check && !met) process.exitCode = 1;
