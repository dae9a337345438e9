import { Step } from './step.js';
import type { StepRun } from './step-context.js';

/** Options of {@link cacheStep}. */
export interface CacheStepOptions<I> {
  /** The cache key of an input (default: its JSON). */
  key?: (input: I) => string;
  /** At most this many entries; the least recently used goes first (default 1,000). */
  maxEntries?: number;
  /** The clock, in ms (default `performance.now`; a virtual clock in tests). */
  now?: () => number;
}

/**
 * `step` with its outputs remembered for `ttlMs` per input: a second run on an equal input within
 * the TTL returns the remembered output without running the step. Failures are not remembered;
 * concurrent runs on one input share one execution.
 */
export function cacheStep<I, O>(step: Step<I, O>, ttlMs: number, options: CacheStepOptions<I> = {}): Step<I, O> {
  if (!(ttlMs > 0)) throw new RangeError(`cacheStep: ttlMs must be > 0, got ${ttlMs}`);
  const keyOf = options.key ?? ((input: I) => JSON.stringify(input) ?? 'undefined');
  const maxEntries = options.maxEntries ?? 1_000;
  const now = options.now ?? (() => performance.now());
  const entries = new Map<string, { expires: number; value: Promise<O> }>();
  return new Step<I, O>(`cache(${step.name})`, (input, context) => {
    const key = keyOf(input);
    const hit = entries.get(key);
    if (hit !== undefined) {
      entries.delete(key);
      if (hit.expires > now()) {
        entries.set(key, hit); // most recently used last
        return hit.value;
      }
    }
    const value = step.execute(input, context as StepRun);
    const entry = { expires: now() + ttlMs, value };
    entries.set(key, entry);
    value.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      entries.delete(oldest);
    }
    return value;
  });
}
