import { parseStoreUrl } from '../../storage/index.js';
import { InMemoryTraceStore } from './in-memory-trace-store.js';
import { JSONLTraceStore } from './jsonl-trace-store.js';
import { SQLiteTraceStore } from './sqlite-trace-store.js';
import type { TraceStore } from './types.js';

/** The URL schemes a trace store can be opened from. */
export const TRACE_STORE_SCHEMES = ['memory', 'file', 'sqlite'] as const;

/**
 * Opens a trace store by URL: `memory://` (InMemoryTraceStore), `file://dir` (JSONLTraceStore: one
 * `<runId>.jsonl` per run, like `.agentlib/traces`), `sqlite://` (`.agentlib/agentlib.db`) or
 * `sqlite://file.db` (SQLiteTraceStore). Relative paths resolve against `cwd`.
 */
export function openTraceStore(url: string, options: { cwd?: string } = {}): TraceStore {
  const location = parseStoreUrl(url, { allowed: [...TRACE_STORE_SCHEMES], what: 'trace store', ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
  switch (location.scheme) {
    case 'memory':
      return new InMemoryTraceStore();
    case 'file':
      return new JSONLTraceStore(location.path ?? url);
    case 'sqlite':
      return new SQLiteTraceStore(location.path ?? url);
    default:
      throw new Error(`unreachable: ${location.scheme}`);
  }
}
