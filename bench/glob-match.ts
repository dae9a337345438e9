// Cost of the policy glob matcher on adversarial arguments: a long run of one character against
// patterns that make a backtracking regular expression (^.*a.*b$) take time growing with the square
// of the length. The matcher backtracks only to its last `*`, so 8× the text should take about 8×
// the time (64× if it grew with the square). The correctness of these matches is tested in
// test/lib/safety/glob.test.ts; timings here are the fastest of the samples (the least disturbed
// by other load).
//   node --import tsx bench/glob-match.ts [--samples 15] [--check] [--json PATH | --no-json]
// Targets: the 60,000-character case within 1,000 ms; 120,000 characters at most 24× the time of 15,000
// (linear growth is 8×, quadratic 64×).
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { matchesGlob } from '../lib/safety/glob.js';
import { findGc, median } from './lib/measure.js';

const { values: args } = parseArgs({
  options: {
    samples: { type: 'string', default: '15' },
    check: { type: 'boolean', default: false },
    json: { type: 'string', default: 'bench/results/glob-match.json' },
    'no-json': { type: 'boolean', default: false },
  },
});
const samples = Number(args.samples);
if (!Number.isInteger(samples) || samples < 1) throw new Error(`--samples must be a positive integer, got ${args.samples}`);

const LENGTHS = [15_000, 30_000, 60_000, 120_000];
const TARGET_LENGTH = 60_000;
const TARGET_MS = 1_000;
const MAX_GROWTH = 24;
/** Each case: a pattern and whether it matches a run of `a`s (checked before timing). */
const CASES: readonly (readonly [string, boolean])[] = [
  ['*a*b', false],
  ['*a*a*a*a*a*', true],
];

/** ms for matching every case once against `text`. */
function once(text: string): number {
  const started = process.hrtime.bigint();
  for (const [pattern, expected] of CASES) {
    if (matchesGlob(pattern, text) !== expected) throw new Error(`${pattern} against ${text.length} characters: expected ${String(expected)}`);
  }
  return Number(process.hrtime.bigint() - started) / 1e6;
}

// Rounds interleave the lengths (so other load affects all alike), each sample after a full GC.
const gc = findGc();
const texts = LENGTHS.map((length) => 'a'.repeat(length));
const times = LENGTHS.map((): number[] => []);
for (const text of texts) once(text); // warm up
for (let round = 0; round < samples; round++) {
  texts.forEach((text, i) => {
    gc?.();
    times[i]?.push(once(text));
  });
}
const results = LENGTHS.map((length, i) => ({ length, minMs: Math.min(...(times[i] ?? [])), medianMs: median(times[i] ?? []) }));

console.log(`glob-match: ${samples} samples per length, node ${process.version}, ${cpus()[0]?.model ?? 'cpu'}, load ${loadavg()[0]?.toFixed(2)}`);
console.log(`patterns: ${CASES.map(([pattern]) => pattern).join(', ')} against 'a' × length`);
const shortest = results[0]?.minMs ?? Number.NaN;
console.log(`${'length'.padStart(8)}${'min ms'.padStart(10)}${'median ms'.padStart(12)}${'× shortest'.padStart(12)}`);
for (const result of results) {
  console.log(`${String(result.length).padStart(8)}${result.minMs.toFixed(2).padStart(10)}${result.medianMs.toFixed(2).padStart(12)}${`${(result.minMs / shortest).toFixed(2)}×`.padStart(12)}`);
}
const targetMs = results.find((result) => result.length === TARGET_LENGTH)?.minMs ?? Infinity;
const growth = (results.at(-1)?.minMs ?? Infinity) / shortest;
const met = targetMs <= TARGET_MS && growth <= MAX_GROWTH;
console.log(`target: ${TARGET_LENGTH} characters ≤ ${TARGET_MS} ms (${targetMs.toFixed(2)} ms); ${LENGTHS.at(-1)} characters ≤ ${MAX_GROWTH}× ${LENGTHS[0]} (${growth.toFixed(2)}×): ${met ? 'met' : 'MISSED'}`);

if (!args['no-json']) {
  mkdirSync(dirname(args.json), { recursive: true });
  writeFileSync(args.json, `${JSON.stringify({ version: 1, samples, node: process.version, results, target: { length: TARGET_LENGTH, maxMs: TARGET_MS, maxGrowth: MAX_GROWTH, met } }, null, 2)}\n`);
}
if (args.check && !met) process.exitCode = 1;
