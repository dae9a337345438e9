import type { CaseFilter } from '../../lib/evals/select-cases.js';
import { UsageError } from '../../cli/usage-error.js';
import type { CommandArguments } from '../command-module.js';

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String).filter((v) => v !== '') : typeof value === 'string' && value !== '' ? [value] : [];
}

/** `--shard 2/4` → `{ index: 2, total: 4 }`. */
export function parseShard(value: string): { index: number; total: number } {
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = Number(match?.[1]);
  const total = Number(match?.[2]);
  if (match === null || total < 1 || index < 1 || index > total) throw new UsageError(`--shard takes i/n with 1 ≤ i ≤ n (got "${value}"): --shard 1/4`);
  return { index, total };
}

/** The case filter from `--filter-pattern`, `--filter-tag`, `--filter-metadata` and `--shard`. */
export function caseFilterFrom(args: CommandArguments): CaseFilter {
  const filter: CaseFilter = {};
  if (typeof args.filterPattern === 'string' && args.filterPattern !== '') {
    try {
      filter.pattern = new RegExp(args.filterPattern);
    } catch (error) {
      throw new UsageError(`--filter-pattern: ${(error as Error).message}`);
    }
  }
  const tags = strings(args.filterTag);
  if (tags.length > 0) filter.tags = tags;
  const metadata: Record<string, string> = {};
  for (const pair of strings(args.filterMetadata)) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new UsageError(`--filter-metadata takes key=value (got "${pair}")`);
    metadata[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  if (Object.keys(metadata).length > 0) filter.metadata = metadata;
  if (typeof args.shard === 'string' && args.shard !== '') filter.shard = parseShard(args.shard);
  return filter;
}

/** A list option as strings. */
export { strings as stringList };
