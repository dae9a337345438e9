// Start-up time of the agentlib command against `node -e 0` on the same machine, measured as the
// median wall time of spawning each command line (interleaved rounds, so load affects all alike):
//   npm run bench:cli            (builds first)
//   node --import tsx bench/cli-startup.ts --runs 30 --check
// Targets against `node -e 0`: `agentlib --help` ≤ 1.3× (issue 4), `agentlib run --help` ≤ 1.5× and
// `run … --replay` on the calculator example ≤ 3× warm (issue 13: its TypeScript tool file comes
// from the compiled-module cache, made by the warm-up run in a fresh AGENTLIB_CACHE_DIR). The
// compiled CLI (dist/) is measured, as users run it; `run --replay` runs offline from its cassette.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('../', import.meta.url));
const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '25' }, check: { type: 'boolean', default: false }, json: { type: 'string', default: 'bench/results/cli-startup.json' } },
});
const runs = Number(args.runs);
/** Largest ratio to `node -e 0` per measured command. */
const TARGETS: Record<string, number> = { 'agentlib --help': 1.3, 'agentlib run --help': 1.5, 'agentlib run --replay (example)': 3 };

const bin = 'bin/agentlib.js';
const CASES: Record<string, string[]> = {
  'node -e 0': ['-e', '0'],
  'agentlib --help': [bin, '--help'],
  'agentlib --version': [bin, '--version'],
  'agentlib run --help': [bin, 'run', '--help'],
  'agentlib run --replay (example)': [bin, 'run', 'examples/calculator/agent.yaml', 'What is 1231 * 2331?', '--replay', 'examples/calculator/cassette.jsonl', '--no-trace', '--quiet'],
};

const cacheDir = mkdtempSync(join(tmpdir(), 'agentlib-bench-cache-'));
process.on('exit', () => rmSync(cacheDir, { recursive: true, force: true }));
const env = { ...process.env, CI: 'true', NO_COLOR: '1', OPENAI_API_KEY: '', AGENTLIB_CACHE_DIR: cacheDir };
function once(argv: string[]): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, argv, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} exited ${String(result.status)}: ${result.stderr.toString()}`);
  return ms;
}

const times: Record<string, number[]> = Object.fromEntries(Object.keys(CASES).map((name) => [name, []]));
for (const argv of Object.values(CASES)) once(argv); // warm the file system cache (and compile the tool once)
for (let i = 0; i < runs; i++) for (const [name, argv] of Object.entries(CASES)) times[name]?.push(once(argv));

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const base = median(times['node -e 0'] ?? []);
console.log(`cli-startup: ${runs} runs each, node ${process.version}, ${cpus()[0]?.model ?? 'cpu'}, load ${loadavg()[0]?.toFixed(2)}`);
console.log(`${'command'.padEnd(34)}${'median ms'.padStart(10)}${'vs node -e 0'.padStart(14)}`);
const results: Record<string, { medianMs: number; ratio: number }> = {};
for (const name of Object.keys(CASES)) {
  const m = median(times[name] ?? []);
  results[name] = { medianMs: m, ratio: m / base };
  console.log(`${name.padEnd(34)}${m.toFixed(1).padStart(10)}${`${(m / base).toFixed(2)}×`.padStart(14)}`);
}
let met = true;
for (const [name, target] of Object.entries(TARGETS)) {
  const ratio = results[name]?.ratio ?? Infinity;
  met &&= ratio <= target;
  console.log(`target: ${name} ≤ ${target}× node -e 0: ${ratio <= target ? 'met' : 'MISSED'} (${ratio.toFixed(2)}×)`);
}
if (args.json) {
  mkdirSync(new URL('../bench/results/', import.meta.url), { recursive: true });
  writeFileSync(new URL(`../${args.json}`, import.meta.url), `${JSON.stringify({ version: 1, runs, node: process.version, results, targets: TARGETS, met }, null, 2)}\n`);
}
if (args.check && !met) process.exitCode = 1;
