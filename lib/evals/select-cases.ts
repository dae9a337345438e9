import { createHash } from 'node:crypto';
import type { EvalCase } from './types.js';

/** Case filters (the CLI's --filter-* and --shard). */
export interface CaseFilter {
  /** Keep cases whose id or description matches. */
  pattern?: RegExp;
  /** Keep cases carrying any of these tags. */
  tags?: readonly string[];
  /** Keep cases whose metadata has every key=value (compared as strings). */
  metadata?: Readonly<Record<string, string>>;
  /** Keep the stable slice `index` (1-based) of `total`. */
  shard?: { index: number; total: number };
}

/** The shard (0-based) a case belongs to: a hash of its id, so it stays put when cases are added or reordered. */
export function shardOf(id: string, total: number): number {
  return createHash('sha256').update(id).digest().readUInt32BE(0) % total;
}

/** The cases the filter keeps, in suite order. */
export function selectCases(cases: readonly EvalCase[], filter: CaseFilter): EvalCase[] {
  return cases.filter((c) => {
    if (filter.pattern !== undefined && !filter.pattern.test(c.id) && !(c.description !== undefined && filter.pattern.test(c.description))) return false;
    if (filter.tags !== undefined && filter.tags.length > 0 && !filter.tags.some((t) => c.tags.includes(t))) return false;
    if (filter.metadata !== undefined && !Object.entries(filter.metadata).every(([k, v]) => Object.hasOwn(c.metadata, k) && String(c.metadata[k]) === v)) return false;
    if (filter.shard !== undefined && shardOf(c.id, filter.shard.total) !== filter.shard.index - 1) return false;
    return true;
  });
}
