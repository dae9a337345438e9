import type { ListCheckpointsOptions } from './types.js';

/** Default page size of `list`. */
export const DEFAULT_PAGE = 100;

/** One page of a newest-first list: after the `before` checkpoint, `limit` long. */
export function pageOf<T extends { id: string }>(newestFirst: readonly T[], options: ListCheckpointsOptions): T[] {
  const limit = pageLimit(options);
  let start = 0;
  if (options.before !== undefined) {
    const at = newestFirst.findIndex((c) => c.id === options.before);
    if (at === -1) return [];
    start = at + 1;
  }
  return newestFirst.slice(start, start + limit);
}

/** The page size asked for (a positive integer). */
export function pageLimit(options: ListCheckpointsOptions): number {
  const limit = options.limit ?? DEFAULT_PAGE;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`list: limit must be a positive integer, got ${String(limit)}`);
  return limit;
}
