import { traceTotals } from '../totals.js';
import { runStart } from '../trace-data.js';
import type { AgentTraceJSON } from '../trace-step.js';
import type { TraceQuery, TraceSummary } from './types.js';

/** The tags of a trace: `metadata.tags` when it is a list of strings (other entries ignored). */
export function traceTags(trace: AgentTraceJSON): string[] {
  const tags = trace.metadata['tags'];
  return Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [];
}

/** The list row of a trace. */
export function summarizeTrace(trace: AgentTraceJSON): TraceSummary {
  const totals = traceTotals(trace);
  const summary: TraceSummary = {
    runId: trace.runId,
    startedAt: runStart(trace),
    durationMs: totals.durationMs,
    tags: traceTags(trace),
    steps: totals.steps,
    llmCalls: totals.llmCalls,
    toolCalls: totals.toolCalls,
    errors: totals.errors,
    totalTokens: totals.totalTokens,
    costUsd: totals.costUsd,
  };
  for (const key of ['parentRunId', 'agentName', 'provider', 'model', 'status'] as const) {
    const value = trace[key];
    if (value !== undefined) summary[key] = value;
  }
  if (trace.incomplete === true) summary.incomplete = true;
  return summary;
}

/** True when a summary passes every field of the query (limit aside). */
export function matchesQuery(summary: TraceSummary, query: TraceQuery): boolean {
  if (query.agent !== undefined && summary.agentName !== query.agent) return false;
  if (query.status !== undefined && summary.status !== query.status) return false;
  if (query.parentRunId !== undefined && summary.parentRunId !== query.parentRunId) return false;
  if (query.since !== undefined && summary.startedAt < query.since) return false;
  if (query.until !== undefined && summary.startedAt >= query.until) return false;
  if (query.tag !== undefined && !summary.tags.includes(query.tag)) return false;
  return true;
}

/** Filters, sorts newest first (ties by run id) and applies the limit. */
export function selectSummaries(summaries: Iterable<TraceSummary>, query: TraceQuery = {}): TraceSummary[] {
  const selected = [...summaries].filter((summary) => matchesQuery(summary, query));
  selected.sort((a, b) => b.startedAt - a.startedAt || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
  return query.limit === undefined ? selected : selected.slice(0, query.limit);
}
