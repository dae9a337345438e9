import asciichart from 'asciichart';
import Table from 'cli-table3';
import { writeJson } from '../../cli/output.js';
import { UsageError } from '../../cli/usage-error.js';
import { formatCost, formatDuration, formatTokensGrouped } from '../../lib/core/format-units.js';
import { traceStats, type StatsGrouping, type TraceStatsReport } from '../../lib/trace/analytics/index.js';
import type { TraceStore } from '../../lib/trace/stores/types.js';
import type { AgentTraceJSON } from '../../lib/trace/trace-step.js';
import type { CommandArguments, CommandContext } from '../command-module.js';
import { formatTimestamp, safeCell } from './format.js';
import { parseSince } from './since.js';

const GROUPINGS: readonly StatsGrouping[] = ['tool', 'model', 'agent'];

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

function grouping(value: unknown): StatsGrouping[] {
  if (value === undefined) return [...GROUPINGS];
  if (typeof value === 'string' && (GROUPINGS as readonly string[]).includes(value)) return [value as StatsGrouping];
  throw new UsageError(`--by must be one of ${GROUPINGS.join(', ')}, got ${JSON.stringify(value)}`);
}

function table(head: string[], rows: string[][], color: boolean): string {
  const t = new Table({ head, style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [] } });
  t.push(...rows);
  return t.toString();
}

function sections(report: TraceStatsReport, by: StatsGrouping[], color: boolean): string[] {
  const out: string[] = [];
  if (by.includes('tool')) {
    const rows = report.tools.map((r) => [safeCell(r.name), String(r.calls), percent(r.successRate), String(r.cached), formatDuration(r.p50Ms), formatDuration(r.p95Ms), formatTokensGrouped(r.resultTokens)]);
    out.push(`Tools\n${rows.length === 0 ? '(no tool calls)' : table(['tool', 'calls', 'success', 'cached', 'p50', 'p95', 'result tokens (est.)'], rows, color)}`);
  }
  if (by.includes('model')) {
    const rows = report.models.map((r) => [safeCell(r.name), String(r.calls), formatTokensGrouped(r.totalTokens), formatCost(r.costUsd), percent(r.cacheHitRate), formatDuration(r.p50Ms), formatDuration(r.p95Ms)]);
    out.push(`Models\n${rows.length === 0 ? '(no LLM calls)' : table(['model', 'calls', 'tokens', 'cost', 'cache hits', 'p50', 'p95'], rows, color)}`);
  }
  if (by.includes('agent')) {
    const rows = report.agents.map((r) => [safeCell(r.name), String(r.runs), percent(r.successRate), formatTokensGrouped(r.totalTokens), formatCost(r.costUsd), formatDuration(r.p50Ms), formatDuration(r.p95Ms)]);
    out.push(`Agents\n${rows.length === 0 ? '(no runs)' : table(['agent', 'runs', 'success', 'tokens', 'cost', 'p50', 'p95'], rows, color)}`);
  }
  return out;
}

/** Sparklines of cost and median run duration per bucket (asciichart), when there are two buckets or more. */
function charts(report: TraceStatsReport): string[] {
  if (report.series.length < 2) return [];
  const unit = report.bucketMs >= 86_400_000 ? 'day' : 'hour';
  const span = `${formatTimestamp(report.series[0]?.start)} … ${formatTimestamp(report.series.at(-1)?.start)}, per ${unit}`;
  const plot = (values: number[], format: (x: number) => string) => asciichart.plot(values, { height: 5, format: (x: number) => format(x).padStart(10) });
  return [
    `Cost (${span})\n${plot(report.series.map((b) => b.costUsd), formatCost)}`,
    `Median run duration (${span})\n${plot(report.series.map((b) => b.p50Ms), (x) => `${Math.round(x)} ms`)}`,
  ];
}

/**
 * `agentlib trace stats [--since 7d] [--by tool|model|agent] [--json]`: analytics over the stored
 * traces (cli-table3 tables, asciichart sparklines of cost and latency over time).
 */
export async function statsCommand(store: TraceStore, args: CommandArguments, context: CommandContext, now = Date.now()): Promise<number> {
  const by = grouping(args.by);
  const since = typeof args.since === 'string' && args.since !== '' ? parseSince(args.since, now) : undefined;
  const summaries = await store.list(since === undefined ? {} : { since });
  const traces = (await Promise.all(summaries.map((s) => store.get(s.runId)))).filter((t): t is AgentTraceJSON => t !== undefined);
  const report = traceStats(traces, since === undefined ? {} : { since });
  if (args.json === true) {
    const { version: _version, ...rest } = report;
    writeJson(context.io, rest);
    return 0;
  }
  if (report.runs === 0) {
    context.io.stderr.write(since === undefined ? 'no traces\n' : `no traces since ${formatTimestamp(since)}\n`);
    return 0;
  }
  const head = `${report.runs} run(s), ${formatTokensGrouped(report.totalTokens)} tokens, ${formatCost(report.costUsd)}, ${formatTimestamp(report.from)} … ${formatTimestamp(report.to)}`;
  context.io.stdout.write(`${[head, ...sections(report, by, context.color), ...charts(report)].join('\n\n')}\n`);
  return 0;
}
