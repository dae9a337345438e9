export { InMemoryTraceStore } from './in-memory-trace-store.js';
export { JSONLTraceStore } from './jsonl-trace-store.js';
export { openTraceStore, TRACE_STORE_SCHEMES } from './open-trace-store.js';
export { SQLiteTraceStore } from './sqlite-trace-store.js';
export { matchesQuery, selectSummaries, summarizeTrace, traceTags } from './trace-summary.js';
export type { PruneOptions, TraceQuery, TraceStore, TraceSummary } from './types.js';
