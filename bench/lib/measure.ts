// Timing helpers: per-run µs of one sample, medians, quartiles, and a best-effort GC between samples.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Mean µs per run of one sample: wall clock (hrtime) and process CPU time (user + system, all threads). */
export interface Sample {
  wallUs: number;
  cpuUs: number;
}

/** Runs `run` `count` times in sequence and returns the mean µs per run of that sample. */
export async function sample(run: () => Promise<unknown>, count: number): Promise<Sample> {
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await run();
  const elapsed = process.hrtime.bigint() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { wallUs: Number(elapsed) / 1000 / count, cpuUs: (cpu.user + cpu.system) / count };
}

/**
 * Untimed warm-up: at least `count` runs and at least `minMs` milliseconds (the peers need a few
 * thousand runs before their JIT profile settles). Returns the number of runs made.
 */
export async function warmUp(run: () => Promise<unknown>, count: number, minMs: number): Promise<number> {
  const deadline = process.hrtime.bigint() + BigInt(Math.round(minMs * 1e6));
  let runs = 0;
  while (runs < count || process.hrtime.bigint() < deadline) {
    await run();
    runs++;
  }
  return runs;
}

/** The q-quantile (0..1) of `values`, linearly interpolated. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((x, y) => x - y);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const lowValue = sorted[low] ?? Number.NaN;
  const highValue = sorted[high] ?? lowValue;
  return lowValue + (highValue - lowValue) * (position - low);
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

export interface Summary {
  /** Median over samples of the per-run wall-clock µs (the headline number). */
  medianUs: number;
  p25Us: number;
  p75Us: number;
  minUs: number;
  /** Median over samples of the per-run process CPU µs (less sensitive to other processes). */
  cpuMedianUs: number;
  samples: number;
}

const round = (value: number): number => Math.round(value * 100) / 100;

export function summarize(samples: readonly Sample[]): Summary {
  const wall = samples.map((one) => one.wallUs);
  return {
    medianUs: round(median(wall)),
    p25Us: round(quantile(wall, 0.25)),
    p75Us: round(quantile(wall, 0.75)),
    minUs: round(wall.length > 0 ? Math.min(...wall) : Number.NaN),
    cpuMedianUs: round(median(samples.map((one) => one.cpuUs))),
    samples: samples.length,
  };
}

/**
 * A full GC, or undefined when none can be had: `global.gc` when node runs with --expose-gc, else
 * the same function obtained by enabling the flag at run time (a fresh context then sees `gc`).
 */
export function findGc(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  try {
    setFlagsFromString('--expose-gc');
    const fromContext: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
    return typeof fromContext === 'function' ? (fromContext as () => void) : undefined;
  } catch {
    return undefined;
  }
}
