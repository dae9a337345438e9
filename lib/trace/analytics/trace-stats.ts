import { runEnd, runStart } from '../trace-data.js';
import type { AgentTraceJSON, TraceStep } from '../trace-step.js';
import { percentile } from './percentile.js';

/** How `traceStats` groups rows. */
export type StatsGrouping = 'tool' | 'model' | 'agent';

/** Per tool: tool_execution steps. */
export interface ToolStatsRow {
  name: string;
  calls: number;
  errors: number;
  /** (calls − errors) / calls. */
  successRate: number;
  /** Calls answered by the tool-result cache. */
  cached: number;
  p50Ms: number;
  p95Ms: number;
  /** Tokens of the results fed back to the model, estimated (characters / 4 of the recorded output, which traces cap). */
  resultTokens: number;
}

/** Per model: llm_call steps and response cache_hit steps. */
export interface ModelStatsRow {
  name: string;
  /** LLM calls made (cache hits not included). */
  calls: number;
  errors: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  costUsd: number;
  cacheHits: number;
  /** cacheHits / (calls + cacheHits). */
  cacheHitRate: number;
  p50Ms: number;
  p95Ms: number;
}

/** Per agent: runs. */
export interface AgentStatsRow {
  name: string;
  runs: number;
  /** Runs whose status is `completed`. */
  completed: number;
  successRate: number;
  totalTokens: number;
  costUsd: number;
  p50Ms: number;
  p95Ms: number;
}

/** One bucket of the time series (runs that started in [start, start + bucketMs)). */
export interface StatsBucket {
  start: number;
  runs: number;
  costUsd: number;
  /** Median run duration in the bucket (0 without runs). */
  p50Ms: number;
}

/** What `agentlib trace stats` reports. */
export interface TraceStatsReport {
  version: 1;
  runs: number;
  since?: number;
  /** The first and last run start covered. */
  from?: number;
  to?: number;
  totalTokens: number;
  costUsd: number;
  tools: ToolStatsRow[];
  models: ModelStatsRow[];
  agents: AgentStatsRow[];
  bucketMs: number;
  series: StatsBucket[];
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}

function sortRows<T extends { name: string }>(rows: Map<string, T>, weight: (row: T) => number): T[] {
  return [...rows.values()].sort((a, b) => weight(b) - weight(a) || (a.name < b.name ? -1 : 1));
}

function toolRows(steps: readonly TraceStep[]): ToolStatsRow[] {
  const rows = new Map<string, ToolStatsRow & { latencies: number[] }>();
  for (const step of steps) {
    if (step.type !== 'tool_execution') continue;
    const name = step.name ?? '(unnamed)';
    const row = rows.get(name) ?? { name, calls: 0, errors: 0, successRate: 0, cached: 0, p50Ms: 0, p95Ms: 0, resultTokens: 0, latencies: [] };
    row.calls++;
    if (step.status === 'error') row.errors++;
    if (step.metadata?.['cached'] === true) row.cached++;
    row.latencies.push(step.durationMs);
    row.resultTokens += Math.ceil((step.output ?? '').length / 4);
    rows.set(name, row);
  }
  return sortRows(rows, (r) => r.calls).map(({ latencies, ...row }) => ({ ...row, successRate: ratio(row.calls - row.errors, row.calls), p50Ms: percentile(latencies, 50), p95Ms: percentile(latencies, 95) }));
}

function modelRows(steps: readonly TraceStep[]): ModelStatsRow[] {
  const rows = new Map<string, ModelStatsRow & { latencies: number[] }>();
  const rowOf = (name: string) => {
    const row = rows.get(name) ?? { name, calls: 0, errors: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, cacheHits: 0, cacheHitRate: 0, p50Ms: 0, p95Ms: 0, latencies: [] };
    rows.set(name, row);
    return row;
  };
  for (const step of steps) {
    const isHit = step.type === 'cache_hit' && step.metadata?.['kind'] !== 'tool';
    if (step.type !== 'llm_call' && !isHit) continue;
    const row = rowOf(step.name ?? '(unknown model)');
    if (isHit) row.cacheHits++;
    else {
      row.calls++;
      if (step.status === 'error') row.errors++;
      row.latencies.push(step.durationMs);
    }
    // Cached replies still count their tokens (the spec's "usage still counted"); their cost is 0.
    row.promptTokens += step.usage?.promptTokens ?? 0;
    row.completionTokens += step.usage?.completionTokens ?? 0;
    row.totalTokens += step.usage?.totalTokens ?? 0;
    row.costUsd += step.costUsd ?? 0;
  }
  return sortRows(rows, (r) => r.calls + r.cacheHits).map(({ latencies, ...row }) => ({ ...row, cacheHitRate: ratio(row.cacheHits, row.calls + row.cacheHits), p50Ms: percentile(latencies, 50), p95Ms: percentile(latencies, 95) }));
}

function stepTotals(trace: AgentTraceJSON): { tokens: number; cost: number } {
  let tokens = 0;
  let cost = 0;
  for (const step of trace.steps) {
    tokens += step.usage?.totalTokens ?? 0;
    cost += step.costUsd ?? 0;
  }
  return { tokens, cost };
}

function agentRows(traces: readonly AgentTraceJSON[]): AgentStatsRow[] {
  const rows = new Map<string, AgentStatsRow & { latencies: number[] }>();
  for (const trace of traces) {
    const name = trace.agentName ?? '(unnamed)';
    const row = rows.get(name) ?? { name, runs: 0, completed: 0, successRate: 0, totalTokens: 0, costUsd: 0, p50Ms: 0, p95Ms: 0, latencies: [] };
    const totals = stepTotals(trace);
    row.runs++;
    if (trace.status === 'completed') row.completed++;
    row.totalTokens += totals.tokens;
    row.costUsd += totals.cost;
    row.latencies.push(Math.max(0, runEnd(trace) - runStart(trace)));
    rows.set(name, row);
  }
  return sortRows(rows, (r) => r.runs).map(({ latencies, ...row }) => ({ ...row, successRate: ratio(row.completed, row.runs), p50Ms: percentile(latencies, 50), p95Ms: percentile(latencies, 95) }));
}

/** Hourly buckets for spans up to two days, daily ones beyond. */
function series(traces: readonly AgentTraceJSON[], from: number, to: number): { bucketMs: number; series: StatsBucket[] } {
  const bucketMs = to - from <= 2 * DAY ? HOUR : DAY;
  const first = Math.floor(from / bucketMs) * bucketMs;
  const count = Math.floor((to - first) / bucketMs) + 1;
  const buckets = Array.from({ length: count }, (_, i) => ({ start: first + i * bucketMs, runs: 0, costUsd: 0, durations: [] as number[] }));
  for (const trace of traces) {
    const bucket = buckets[Math.floor((runStart(trace) - first) / bucketMs)];
    if (bucket === undefined) continue;
    bucket.runs++;
    bucket.costUsd += stepTotals(trace).cost;
    bucket.durations.push(Math.max(0, runEnd(trace) - runStart(trace)));
  }
  return { bucketMs, series: buckets.map(({ durations, ...bucket }) => ({ ...bucket, p50Ms: percentile(durations, 50) })) };
}

/**
 * Analytics over stored traces: per tool (calls, success rate, cache hits, p50/p95 latency, result
 * tokens), per model (LLM calls, tokens, cost, cache hit rate, p50/p95 latency), per agent (runs,
 * success rate, tokens, cost, p50/p95 run duration), and a time series of cost and median latency.
 * Nested runs count where their own steps are: pass each trace once.
 */
export function traceStats(traces: readonly AgentTraceJSON[], options: { since?: number } = {}): TraceStatsReport {
  const selected = options.since === undefined ? traces : traces.filter((trace) => runStart(trace) >= options.since!);
  const steps = selected.flatMap((trace) => trace.steps);
  const starts = selected.map(runStart);
  const from = starts.length === 0 ? undefined : Math.min(...starts);
  const to = starts.length === 0 ? undefined : Math.max(...starts);
  let totalTokens = 0;
  let costUsd = 0;
  for (const trace of selected) {
    const totals = stepTotals(trace);
    totalTokens += totals.tokens;
    costUsd += totals.cost;
  }
  const timeline = from === undefined || to === undefined ? { bucketMs: HOUR, series: [] } : series(selected, from, to);
  const report: TraceStatsReport = { version: 1, runs: selected.length, totalTokens, costUsd, tools: toolRows(steps), models: modelRows(steps), agents: agentRows(selected), ...timeline };
  if (options.since !== undefined) report.since = options.since;
  if (from !== undefined) report.from = from;
  if (to !== undefined) report.to = to;
  return report;
}
