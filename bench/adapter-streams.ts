// Streaming overhead of agentlib's Anthropic and Ollama adapters against the raw SDK streams, over
// loopback HTTP, same server, same bytes: a synthetic stream of N text chunks — Anthropic Messages
// SSE (`content_block_delta` / `text_delta` events) and Ollama `/api/chat` NDJSON (one object per
// line) — served by this file in a child process (`--serve`), so the server's CPU is not charged to
// the client.
//
//   npm run build && node --import tsx bench/adapter-streams.ts
//   node --import tsx bench/adapter-streams.ts --quick
//   node --import tsx bench/adapter-streams.ts --chunks 2000 --samples 40
//
// Contenders: raw-anthropic — `anthropic.messages.create({ stream: true })` iterated directly;
// agentlib-anthropic — `new AnthropicProvider({ baseURL }).stream(request)`; raw-ollama —
// `ollama.chat({ stream: true })` iterated directly; agentlib-ollama — `new OllamaProvider({ host
// }).stream(request)`. Per run: the whole stream's wall time and client-process CPU time divided by
// N (per-chunk µs), and the time from the server's first body write to the first text at the
// client (the server reports its process.hrtime.bigint(), a system-wide monotonic clock on Linux).
// Runs interleave the contenders (rotating order); medians over K samples of one run each; each
// adapter's ratios are against its raw SDK. Target: ≤ 1.1× per chunk (wall), judged on the median
// of the per-round ratios (each round runs every contender once).
//
// Options: --quick (BENCH_QUICK=1), --chunks N (2000), --samples K (40; quick 10), --warmup W runs per
// contender (20; quick 5), --batch B (server: events per setImmediate, 16), --json PATH (write the
// results there), --check (exit 1 when a target is missed).
//
// agentlib is measured compiled (dist/, `npm run build`), like users run it; types come from lib/.
// The raw SDKs are the very copies dist/ imports (root node_modules).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { arch, cpus, loadavg, platform } from 'node:os';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type * as AnthropicPackage from '@anthropic-ai/sdk';
import type * as OllamaPackage from 'ollama';
import type * as AnthropicModule from '../lib/providers/anthropic/index.js';
import type * as OllamaModule from '../lib/providers/ollama/index.js';
import type { ProviderRequest } from '../lib/providers/spec.js';
import { findGc, median, quantile } from './lib/measure.js';
import { writeStream } from './lib/write-stream.js';

const TARGET_RATIO = 1.1;
const CHUNK_TEXT = 'tok ';
const ANTHROPIC_MODEL = 'claude-haiku-4-5-20251001';
const OLLAMA_MODEL = 'gemma3:1b';

const { values: args } = parseArgs({
  options: {
    serve: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: process.env.BENCH_QUICK === '1' },
    chunks: { type: 'string' },
    samples: { type: 'string' },
    warmup: { type: 'string' },
    batch: { type: 'string' },
    json: { type: 'string' },
    check: { type: 'boolean', default: false },
  },
});
const positive = (value: string | undefined, fallback: number): number => {
  const parsed = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`expected a positive integer, got ${value}`);
  return parsed;
};
const CHUNKS = positive(args.chunks, 2000);
const BATCH = positive(args.batch, 16);

// --- the server (child process, `--serve`) ----------------------------------------------------

/** Anthropic Messages SSE: message_start, one text block of N deltas, message_delta, message_stop. */
function anthropicEvents(chunks: number): Buffer[] {
  const event = (data: { type: string; [key: string]: unknown }): Buffer => Buffer.from(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
  const events: Buffer[] = [];
  events.push(
    event({
      type: 'message_start',
      message: {
        id: 'msg_bench', type: 'message', role: 'assistant', model: ANTHROPIC_MODEL, content: [], stop_reason: null, stop_sequence: null,
        usage: { input_tokens: 8, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    }),
  );
  events.push(event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }));
  for (let i = 0; i < chunks; i++) events.push(event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: CHUNK_TEXT } }));
  events.push(event({ type: 'content_block_stop', index: 0 }));
  events.push(event({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: chunks } }));
  events.push(event({ type: 'message_stop' }));
  return events;
}

/** Ollama `/api/chat` NDJSON: N content lines, then the `done` line with the counters. */
function ollamaLines(chunks: number): Buffer[] {
  const line = (data: unknown): Buffer => Buffer.from(`${JSON.stringify(data)}\n`);
  const lines: Buffer[] = [];
  const createdAt = '2025-01-01T00:00:00.000000Z';
  for (let i = 0; i < chunks; i++) {
    lines.push(line({ model: OLLAMA_MODEL, created_at: createdAt, message: { role: 'assistant', content: CHUNK_TEXT }, done: false }));
  }
  lines.push(
    line({
      model: OLLAMA_MODEL, created_at: createdAt, message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop',
      total_duration: 1, load_duration: 1, prompt_eval_count: 8, prompt_eval_duration: 1, eval_count: chunks, eval_duration: 1,
    }),
  );
  return lines;
}


async function serve(chunks: number, batch: number): Promise<number> {
  const anthropic = anthropicEvents(chunks);
  const ollama = ollamaLines(chunks);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let requestBytes = 0;
    req.on('data', (chunk: Buffer) => (requestBytes += chunk.length));
    req.on('end', () => {
      if (req.url?.startsWith('/v1/messages')) writeStream(res, 'text/event-stream; charset=utf-8', anthropic, batch, requestBytes, 'request-id');
      else if (req.url?.startsWith('/api/chat')) writeStream(res, 'application/x-ndjson', ollama, batch, requestBytes, 'request-id');
      else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":"not found"}');
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

if (args.serve) {
  const port = await serve(CHUNKS, BATCH);
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
} else {
  await main();
}

// --- the client -------------------------------------------------------------------------------

async function main(): Promise<void> {
  const SAMPLES = positive(args.samples, args.quick ? 10 : 40);
  const WARMUP = positive(args.warmup, args.quick ? 5 : 20);
  const root = (path: string): string => new URL(`../${path}`, import.meta.url).href;
  const { AnthropicProvider } = (await import(root('dist/lib/providers/anthropic/index.js'))) as typeof AnthropicModule;
  const { OllamaProvider } = (await import(root('dist/lib/providers/ollama/index.js'))) as typeof OllamaModule;
  const { default: Anthropic } = (await import(root('node_modules/@anthropic-ai/sdk/index.mjs'))) as typeof AnthropicPackage;
  const { Ollama } = (await import(root('node_modules/ollama/dist/index.mjs'))) as typeof OllamaPackage;

  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', '--chunks', String(CHUNKS), '--batch', String(BATCH)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const serverLines: string[] = [];
  let lineWaiter: (() => void) | undefined;
  createInterface({ input: child.stdout }).on('line', (line) => {
    serverLines.push(line);
    lineWaiter?.();
  });
  const serverLine = async (): Promise<string> => {
    while (serverLines.length === 0) await new Promise<void>((resolve) => (lineWaiter = resolve));
    return serverLines.shift()!;
  };
  const { port } = JSON.parse(await serverLine()) as { port: number };
  const url = `http://127.0.0.1:${port}`;

  const SYSTEM = 'You are a benchmark.';
  const PROMPT = 'hi';
  const rawAnthropic = new Anthropic({ baseURL: url, apiKey: 'x', maxRetries: 0 });
  const anthropicProvider = new AnthropicProvider({ baseURL: url, apiKey: 'x', model: ANTHROPIC_MODEL, timeoutMs: 60_000 });
  const rawOllama = new Ollama({ host: url });
  const ollamaProvider = new OllamaProvider({ host: url, model: OLLAMA_MODEL, timeoutMs: 60_000 });
  const anthropicRequest: ProviderRequest = { model: ANTHROPIC_MODEL, system: SYSTEM, messages: [{ role: 'user', content: PROMPT }], maxTokens: 1000 };
  const ollamaRequest: ProviderRequest = { model: OLLAMA_MODEL, system: SYSTEM, messages: [{ role: 'user', content: PROMPT }] };

  type Timed = (mark: () => void, add: (text: string) => void) => Promise<void>;
  const CONTENDERS = ['raw-anthropic', 'agentlib-anthropic', 'raw-ollama', 'agentlib-ollama'] as const;
  type Contender = (typeof CONTENDERS)[number];
  const PAIRS = [
    { raw: 'raw-anthropic', agentlib: 'agentlib-anthropic' },
    { raw: 'raw-ollama', agentlib: 'agentlib-ollama' },
  ] as const;

  const bodies: Record<Contender, Timed> = {
    'raw-anthropic': async (mark, add) => {
      const stream = await rawAnthropic.messages.create({
        model: ANTHROPIC_MODEL,
        max_tokens: 1000,
        messages: [{ role: 'user', content: [{ type: 'text', text: PROMPT }] }],
        system: SYSTEM,
        stream: true,
      });
      for await (const event of stream) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta' && event.delta.text) {
          mark();
          add(event.delta.text);
        }
      }
    },
    'agentlib-anthropic': async (mark, add) => {
      for await (const part of anthropicProvider.stream(anthropicRequest)) {
        if (part.type === 'text-delta') {
          mark();
          add(part.text);
        }
      }
    },
    'raw-ollama': async (mark, add) => {
      const stream = await rawOllama.chat({
        model: OLLAMA_MODEL,
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: PROMPT },
        ],
        stream: true,
      });
      for await (const chunk of stream) {
        const text = chunk.message.content;
        if (text) {
          mark();
          add(text);
        }
      }
    },
    'agentlib-ollama': async (mark, add) => {
      for await (const part of ollamaProvider.stream(ollamaRequest)) {
        if (part.type === 'text-delta') {
          mark();
          add(part.text);
        }
      }
    },
  };

  interface Run {
    firstByteToTextMs: number;
    totalMs: number;
    cpuUs: number;
    requestBytes: number;
  }
  const expectedLength = CHUNKS * CHUNK_TEXT.length;
  const requestSizes: Partial<Record<Contender, number>> = {};
  async function runOnce(contender: Contender): Promise<Run> {
    let first = 0n;
    let textLength = 0;
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    await bodies[contender](
      () => {
        if (first === 0n) first = process.hrtime.bigint();
      },
      (text) => {
        textLength += text.length;
      },
    );
    const end = process.hrtime.bigint();
    const cpu = process.cpuUsage(cpuStart);
    const { firstByteNs, requestBytes } = JSON.parse(await serverLine()) as { firstByteNs: string; requestBytes: number };
    if (textLength !== expectedLength) throw new Error(`${contender}: got ${textLength} text chars, expected ${expectedLength}`);
    requestSizes[contender] ??= requestBytes;
    return { firstByteToTextMs: Number(first - BigInt(firstByteNs)) / 1e6, totalMs: Number(end - start) / 1e6, cpuUs: cpu.user + cpu.system, requestBytes };
  }

  const gc = findGc();
  for (let i = 0; i < WARMUP; i++) for (const contender of CONTENDERS) await runOnce(contender);
  gc?.();
  const runs: Record<Contender, Run[]> = { 'raw-anthropic': [], 'agentlib-anthropic': [], 'raw-ollama': [], 'agentlib-ollama': [] };
  for (let k = 0; k < SAMPLES; k++) {
    for (let j = 0; j < CONTENDERS.length; j++) {
      const contender = CONTENDERS[(k + j) % CONTENDERS.length]!;
      runs[contender].push(await runOnce(contender));
    }
  }
  child.stdin.end();

  interface Stat {
    median: number;
    p25: number;
    p75: number;
  }
  const METRICS = ['perChunkWallUs', 'perChunkCpuUs', 'firstByteToTextUs'] as const;
  type Metric = (typeof METRICS)[number];
  const round = (value: number): number => Math.round(value * 1000) / 1000;
  const stat = (values: number[]): Stat => ({ median: round(median(values)), p25: round(quantile(values, 0.25)), p75: round(quantile(values, 0.75)) });
  const results = Object.fromEntries(
    CONTENDERS.map((contender) => {
      const list = runs[contender];
      const result: Record<Metric, Stat> = {
        perChunkWallUs: stat(list.map((run) => (run.totalMs * 1000) / CHUNKS)),
        perChunkCpuUs: stat(list.map((run) => run.cpuUs / CHUNKS)),
        firstByteToTextUs: stat(list.map((run) => run.firstByteToTextMs * 1000)),
      };
      return [contender, result];
    }),
  ) as Record<Contender, Record<Metric, Stat>>;
  const ratios = Object.fromEntries(
    PAIRS.map(({ raw, agentlib }) => [agentlib, Object.fromEntries(METRICS.map((metric) => [metric, round(results[agentlib][metric].median / results[raw][metric].median)]))]),
  ) as Record<(typeof PAIRS)[number]['agentlib'], Record<Metric, number>>;
  // Paired ratios: every round runs all contenders back to back, so dividing within a round cancels
  // the slow drifts of a shared VM; the median over rounds is the figure the target uses.
  const metricOf = (run: Run, metric: Metric): number => (metric === 'perChunkWallUs' ? run.totalMs : metric === 'perChunkCpuUs' ? run.cpuUs : run.firstByteToTextMs);
  const paired = Object.fromEntries(
    PAIRS.map(({ raw, agentlib }) => [
      agentlib,
      Object.fromEntries(METRICS.map((metric) => [metric, round(median(runs[agentlib].map((run, k) => metricOf(run, metric) / metricOf(runs[raw][k]!, metric))))])),
    ]),
  ) as Record<(typeof PAIRS)[number]['agentlib'], Record<Metric, number>>;

  const HEADINGS: Record<Metric, string> = { perChunkWallUs: 'per-chunk wall µs', perChunkCpuUs: 'per-chunk CPU µs', firstByteToTextUs: '1st byte→text µs' };
  console.log(`adapter-streams: ${CHUNKS} chunks, ${SAMPLES} samples, ${WARMUP} warm-up runs each, server batch ${BATCH}; node ${process.version}, ${cpus()[0]?.model ?? arch()}`);
  console.log(`${'contender'.padEnd(22)}${METRICS.map((metric) => HEADINGS[metric].padStart(22)).join('')}`);
  for (const { raw, agentlib } of PAIRS) {
    for (const name of [raw, agentlib] as const) {
      const ratio = name === agentlib ? ratios[agentlib] : undefined;
      const cells = METRICS.map((metric) => `${results[name][metric].median.toFixed(2)}${ratio ? ` (${ratio[metric].toFixed(2)}×)` : ''}`.padStart(22));
      console.log(`${name.padEnd(22)}${cells.join('')}`);
    }
  }
  console.log(`(medians; ratio vs the raw SDK in parentheses; request bodies ${JSON.stringify(requestSizes)} B)`);
  let met = true;
  for (const { agentlib } of PAIRS) {
    const ok = paired[agentlib].perChunkWallUs <= TARGET_RATIO;
    met &&= ok;
    console.log(
      `target: ${agentlib} ≤ ${TARGET_RATIO}× raw per chunk (wall, median of paired per-round ratios): ${ok ? 'met' : 'MISSED'} ` +
        `(${paired[agentlib].perChunkWallUs.toFixed(2)}×, CPU ${paired[agentlib].perChunkCpuUs.toFixed(2)}×, first byte→text ${paired[agentlib].firstByteToTextUs.toFixed(2)}×)`,
    );
  }

  if (args.json) {
    mkdirSync(dirname(args.json), { recursive: true });
    const report = {
      benchmark: 'adapter-streams',
      date: new Date().toISOString(),
      environment: { node: process.version, platform: platform(), arch: arch(), cpu: cpus()[0]?.model, cores: cpus().length, loadavg: loadavg() },
      config: { chunks: CHUNKS, samples: SAMPLES, warmup: WARMUP, serverBatch: BATCH, quick: args.quick },
      target: { maxRatio: TARGET_RATIO, metric: 'perChunkWallUs', statistic: 'median of paired per-round ratios', met },
      requestBytes: requestSizes,
      results,
      ratios,
      pairedRatios: paired,
    };
    writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`wrote ${args.json}`);
  }
  if (args.check && !met) process.exitCode = 1;
}
