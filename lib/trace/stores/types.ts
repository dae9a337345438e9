import type { AgentTraceJSON } from '../trace-step.js';

/** What `TraceStore.list` selects; every field narrows (AND). */
export interface TraceQuery {
  /** Agent (or graph) name, exact. */
  agent?: string;
  /** Runs that started at or after this time (ms since the epoch). */
  since?: number;
  /** Runs that started before this time (ms since the epoch). */
  until?: number;
  /** Run status, exact (`completed`, `failed`, …). */
  status?: string;
  /** A tag of the run: `metadata.tags` (a list of strings) contains it. */
  tag?: string;
  /** Runs nested in this run (their `parentRunId`). */
  parentRunId?: string;
  /** At most this many summaries, newest first. */
  limit?: number;
}

/** The totals of one trace: step counts, tokens and cost (a `trace ls` row and a TraceSummary carry them). */
export interface TraceTotals {
  steps: number;
  llmCalls: number;
  toolCalls: number;
  errors: number;
  totalTokens: number;
  costUsd: number;
}

/** One row of `TraceStore.list`: the run fields and totals of a stored trace, without its steps. */
export interface TraceSummary extends TraceTotals {
  runId: string;
  parentRunId?: string;
  agentName?: string;
  provider?: string;
  model?: string;
  status?: string;
  /** Run start, ms since the epoch (the first step's start when the trace has none). */
  startedAt: number;
  durationMs: number;
  tags: string[];
  incomplete?: true;
}

/** What `TraceStore.prune` removes: traces that started before `before` (ms since the epoch). */
export interface PruneOptions {
  before: number;
}

/**
 * Where finished traces are kept and queried: save (replaces a trace with the same run id), get,
 * list with a query (newest first), delete, prune by age. Backends: InMemoryTraceStore,
 * JSONLTraceStore (one `.jsonl` file per run, the format `agentlib run` writes), SQLiteTraceStore
 * (indexed); `openTraceStore(url)` picks one by URL.
 */
export interface TraceStore {
  save(trace: AgentTraceJSON): Promise<void>;
  get(runId: string): Promise<AgentTraceJSON | undefined>;
  list(query?: TraceQuery): Promise<TraceSummary[]>;
  delete(runId: string): Promise<boolean>;
  /** Deletes the traces that started before `before`; returns how many. */
  prune(options: PruneOptions): Promise<number>;
  close(): Promise<void>;
}
