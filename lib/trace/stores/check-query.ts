import { ConfigurationError } from '../../core/errors/configuration-error.js';
import type { TraceQuery } from './types.js';

const KEYS = new Set(['agent', 'since', 'until', 'status', 'tag', 'parentRunId', 'limit']);

/** Refuses unknown query keys and values of the wrong type (a filter that matches nothing silently is a bug). */
export function checkTraceQuery(query: TraceQuery): TraceQuery {
  for (const key of Object.keys(query)) {
    if (!KEYS.has(key)) throw new ConfigurationError(`unknown trace query field "${key}"; expected one of ${[...KEYS].join(', ')}`, { key });
  }
  for (const key of ['agent', 'status', 'tag', 'parentRunId'] as const) {
    const value = query[key];
    if (value !== undefined && typeof value !== 'string') throw new ConfigurationError(`trace query "${key}" must be a string`, { key });
  }
  for (const key of ['since', 'until'] as const) {
    const value = query[key];
    if (value !== undefined && !Number.isFinite(value)) throw new ConfigurationError(`trace query "${key}" must be a time in ms since the epoch`, { key });
  }
  if (query.limit !== undefined && !(Number.isInteger(query.limit) && query.limit >= 0)) throw new ConfigurationError('trace query "limit" must be an integer ≥ 0', { key: 'limit' });
  return query;
}
