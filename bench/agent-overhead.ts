// Framework overhead of one agent run with a zero-latency fake model: agentlib against the Vercel
// AI SDK and the OpenAI Agents SDK, in the same process, on three workloads (see lib/scenario.ts).
//
//   npm run bench:overhead                      # full run (installs bench/ peers first)
//   node --import tsx bench/agent-overhead.ts --quick
//   node --import tsx bench/agent-overhead.ts --only agentlib --workload b
//
// Options (argv, or env): --quick (BENCH_QUICK=1), --samples K (BENCH_SAMPLES), --runs N
// (BENCH_RUNS), --warmup W runs (BENCH_WARMUP) and at least --warmup-ms M (BENCH_WARMUP_MS) per
// framework and workload, --only a,b (frameworks), --workload a,b,c,
// --json PATH (default bench/results/agent-overhead.json; --no-json to skip), --check (exit 1
// when the target is missed).
//
// The peers are imported with a computed specifier so that the root type-check (which sees
// bench/*.ts only) does not need bench/node_modules; bench/tsconfig.json checks everything.
import { mkdirSync, writeFileSync } from 'node:fs';
import { arch, availableParallelism, cpus, loadavg, platform } from 'node:os';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { findGc, sample, summarize, warmUp, type Sample, type Summary } from './lib/measure.js';
import { FINAL_TEXT, WORKLOADS, type BenchTarget, type Framework, type Workload } from './lib/scenario.js';

const TARGET = { workload: 'b', against: 'ai-sdk', maxRatio: 0.2 } as const;
const FRAMEWORK_NAMES = ['agentlib', 'ai-sdk', 'openai-agents'] as const;
type FrameworkName = (typeof FRAMEWORK_NAMES)[number];

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: process.env.BENCH_QUICK === '1' },
    samples: { type: 'string' },
    runs: { type: 'string' },
    warmup: { type: 'string' },
    'warmup-ms': { type: 'string' },
    only: { type: 'string' },
    workload: { type: 'string' },
    json: { type: 'string' },
    'no-json': { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
  },
});

function count(flag: string | undefined, env: string, full: number, quick: number): number {
  const raw = flag ?? process.env[env];
  if (raw === undefined || raw === '') return args.quick ? quick : full;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${env}: expected a non-negative integer, got "${raw}"`);
  return value;
}

function pick<T extends string>(list: string | undefined, known: readonly T[], what: string): T[] {
  if (list === undefined) return [...known];
  const chosen = list.split(',').map((item) => item.trim());
  for (const item of chosen) if (!(known as readonly string[]).includes(item)) throw new Error(`unknown ${what} "${item}" (known: ${known.join(', ')})`);
  return known.filter((item) => chosen.includes(item));
}

const options = {
  quick: args.quick,
  samples: count(args.samples, 'BENCH_SAMPLES', 30, 5),
  runs: count(args.runs, 'BENCH_RUNS', 200, 20),
  warmup: count(args.warmup, 'BENCH_WARMUP', 200, 20),
  warmupMs: count(args['warmup-ms'], 'BENCH_WARMUP_MS', 1500, 100),
};
if (options.samples < 1 || options.runs < 1) throw new Error('--samples and --runs must be at least 1');
const frameworkNames = pick(args.only, FRAMEWORK_NAMES, 'framework');
const workloadIds = pick(args.workload, ['a', 'b', 'c'] as const, 'workload');
const workloads = WORKLOADS.filter((workload) => workloadIds.includes(workload.id));

async function loadFramework(name: FrameworkName): Promise<Framework> {
  if (name === 'agentlib') return (await import('./workloads/agentlib.js')).framework;
  // Computed on purpose: see the header comment.
  const specifier = `./peers/${name}.js`;
  try {
    const loaded = (await import(specifier)) as { framework: Framework };
    return loaded.framework;
  } catch (error) {
    throw new Error(`cannot load the ${name} peer (install the peers first: npm --prefix bench install)`, { cause: error });
  }
}

/** Runs once and fails loudly unless the answer and the number of tool runs are the expected ones. */
async function verify(framework: Framework, workload: Workload, target: BenchTarget): Promise<void> {
  const before = target.toolRuns();
  const text = await target.run();
  const ran = target.toolRuns() - before;
  if (text !== FINAL_TEXT || ran !== workload.calls.length) {
    throw new Error(
      `${framework.name}, workload ${workload.id}: expected ${JSON.stringify(FINAL_TEXT)} after ${workload.calls.length} tool run(s), ` +
        `got ${JSON.stringify(text)} after ${ran}`,
    );
  }
  const extra = target.describe?.();
  console.log(`  ok  ${framework.name.padEnd(14)} ${workload.id}: answer and ${ran} tool run(s) as expected${extra ? ` (${extra})` : ''}`);
}

interface WorkloadResult {
  id: Workload['id'];
  name: string;
  warmupRuns: Record<string, number>;
  results: Partial<Record<FrameworkName, Summary>>;
  /** agentlib ÷ peer, of the wall-clock medians (and of the CPU medians). */
  ratios: { agentlibVsAiSdk?: number; agentlibVsOpenAiAgents?: number; cpuAgentlibVsAiSdk?: number; cpuAgentlibVsOpenAiAgents?: number };
}

async function measureWorkload(frameworks: readonly Framework[], workload: Workload, gc: (() => void) | undefined): Promise<WorkloadResult> {
  const targets: BenchTarget[] = [];
  for (const framework of frameworks) {
    const target = await framework.setup(workload);
    await verify(framework, workload, target);
    targets.push(target);
  }
  const warmupRuns: number[] = [];
  for (const target of targets) warmupRuns.push(await warmUp(() => target.run(), options.warmup, options.warmupMs));
  const samples: Sample[][] = frameworks.map(() => []);
  for (let round = 0; round < options.samples; round++) {
    // Interleaved, rotating which framework goes first, to spread drift (JIT, GC, thermal) evenly.
    for (let offset = 0; offset < targets.length; offset++) {
      const index = (round + offset) % targets.length;
      const target = targets[index]!;
      target.clear?.();
      gc?.();
      samples[index]!.push(await sample(() => target.run(), options.runs));
    }
  }
  // Every run must have run the tool as scripted (checked after timing, outside the timed loops).
  frameworks.forEach((framework, index) => {
    const expectedRuns = (1 + warmupRuns[index]! + options.samples * options.runs) * workload.calls.length;
    const ran = targets[index]!.toolRuns();
    if (ran !== expectedRuns) throw new Error(`${framework.name}, workload ${workload.id}: tool ran ${ran} times, expected ${expectedRuns}`);
  });
  const results: Partial<Record<FrameworkName, Summary>> = {};
  frameworks.forEach((framework, index) => {
    results[framework.name as FrameworkName] = summarize(samples[index]!);
  });
  const ratio = (peer: FrameworkName, key: 'medianUs' | 'cpuMedianUs'): number | undefined => {
    const own = results.agentlib?.[key];
    const other = results[peer]?.[key];
    return own === undefined || other === undefined ? undefined : Math.round((own / other) * 10000) / 10000;
  };
  const ratios: WorkloadResult['ratios'] = {};
  const found: [keyof WorkloadResult['ratios'], number | undefined][] = [
    ['agentlibVsAiSdk', ratio('ai-sdk', 'medianUs')],
    ['agentlibVsOpenAiAgents', ratio('openai-agents', 'medianUs')],
    ['cpuAgentlibVsAiSdk', ratio('ai-sdk', 'cpuMedianUs')],
    ['cpuAgentlibVsOpenAiAgents', ratio('openai-agents', 'cpuMedianUs')],
  ];
  for (const [key, value] of found) if (value !== undefined) ratios[key] = value;
  const warmup = Object.fromEntries(frameworks.map((framework, index) => [framework.name, warmupRuns[index]!]));
  return { id: workload.id, name: workload.name, warmupRuns: warmup, results, ratios };
}

const us = (summary: Summary | undefined): string => (summary === undefined ? '-' : summary.medianUs.toFixed(1));
const times = (value: number | undefined): string => (value === undefined ? '-' : `${value.toFixed(3)}x`);

function printTable(rows: readonly WorkloadResult[]): void {
  const header = ['workload', 'agentlib µs', 'ai-sdk µs', 'openai-agents µs', 'agentlib/ai-sdk', 'agentlib/openai-agents'];
  const lines = rows.map((row) => [
    `(${row.id}) ${row.name}`,
    us(row.results.agentlib),
    us(row.results['ai-sdk']),
    us(row.results['openai-agents']),
    times(row.ratios.agentlibVsAiSdk),
    times(row.ratios.agentlibVsOpenAiAgents),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const format = (cells: readonly string[]): string =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(' | ')} |`;
  console.log(format(header));
  console.log(`|${widths.map((width, column) => (column === 0 ? `${'-'.repeat(width + 1)}-` : `${'-'.repeat(width + 1)}:`)).join('|')}|`);
  for (const line of lines) console.log(format(line));
  console.log('(wall clock: median over samples of the mean µs per run; p25/p75/min in the JSON)');
  console.log('process CPU µs per run (median), less sensitive to other load on the machine:');
  for (const row of rows) {
    const cells = FRAMEWORK_NAMES.filter((name) => row.results[name] !== undefined).map((name) => `${name} ${row.results[name]!.cpuMedianUs.toFixed(1)}`);
    const cpuRatios = [
      row.ratios.cpuAgentlibVsAiSdk === undefined ? '' : ` agentlib/ai-sdk ${times(row.ratios.cpuAgentlibVsAiSdk)}`,
      row.ratios.cpuAgentlibVsOpenAiAgents === undefined ? '' : ` agentlib/openai-agents ${times(row.ratios.cpuAgentlibVsOpenAiAgents)}`,
    ].join('');
    console.log(`  (${row.id}) ${cells.join(', ')}${cpuRatios}`);
  }
}

async function main(): Promise<void> {
  const frameworks: Framework[] = [];
  for (const name of frameworkNames) frameworks.push(await loadFramework(name));
  const gc = findGc();
  console.log(`agent overhead: node ${process.version}, ${platform()}/${arch()}, ${cpus()[0]?.model ?? 'unknown cpu'}`);
  console.log(`frameworks: ${frameworks.map((framework) => framework.version).join(', ')}`);
  console.log(
    `warm-up ≥ ${options.warmup} runs and ≥ ${options.warmupMs} ms, ${options.samples} samples × ${options.runs} runs, interleaved${options.quick ? ' (quick)' : ''}; ` +
      `gc between samples: ${gc ? 'yes' : 'no'}`,
  );
  const loadBefore = loadavg()[0] ?? 0;
  console.log(`load average ${loadBefore.toFixed(2)} on ${availableParallelism()} cores${loadBefore > 1 ? ' (other work is running: expect noise)' : ''}`);
  const rows: WorkloadResult[] = [];
  for (const workload of workloads) {
    console.log(`workload (${workload.id}) ${workload.name}`);
    rows.push(await measureWorkload(frameworks, workload, gc));
  }
  console.log('');
  printTable(rows);

  const targetRatio = rows.find((row) => row.id === TARGET.workload)?.ratios.agentlibVsAiSdk;
  const met = targetRatio === undefined ? undefined : targetRatio <= TARGET.maxRatio;
  const verdict = met === undefined ? 'not measured' : met ? 'MET' : 'MISSED';
  console.log(`\ntarget: workload (${TARGET.workload}) agentlib ≤ ${TARGET.maxRatio}× the Vercel AI SDK time: ${verdict}${targetRatio === undefined ? '' : ` (${times(targetRatio)})`}`);

  if (!args['no-json']) {
    const path = args.json ?? fileURLToPath(new URL('./results/agent-overhead.json', import.meta.url));
    mkdirSync(dirname(path), { recursive: true });
    const report = {
      benchmark: 'agent-overhead',
      date: new Date().toISOString(),
      node: process.version,
      platform: `${platform()}/${arch()}`,
      cpu: cpus()[0]?.model ?? 'unknown',
      options: { ...options, gc: gc !== undefined },
      loadAverage: { before: Math.round(loadBefore * 100) / 100, after: Math.round((loadavg()[0] ?? 0) * 100) / 100, cores: availableParallelism() },
      frameworks: Object.fromEntries(frameworks.map((framework) => [framework.name, framework.version])),
      unit: 'µs per run (median over samples of the per-sample mean)',
      workloads: rows,
      target: { ...TARGET, ratio: targetRatio ?? null, met: met ?? null },
    };
    writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`wrote ${relative(process.cwd(), path)}`);
  }
  if (args.check && met === false) process.exitCode = 1;
}

await main();
