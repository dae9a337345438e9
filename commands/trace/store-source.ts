import { writeJson } from '../../cli/output.js';
import { UsageError } from '../../cli/usage-error.js';
import { closestMatch } from '../../lib/core/suggest.js';
import { formatCost, formatDuration, formatTokensGrouped } from '../../lib/core/format-units.js';
import { AgentTrace } from '../../lib/trace/agent-trace.js';
import type { TraceStore } from '../../lib/trace/stores/types.js';
import type { CommandArguments, CommandContext } from '../command-module.js';
import { cell, formatTimestamp, safeCell } from './format.js';
import type { LoadedTrace } from './resolve-trace.js';

/**
 * A trace of a store (`--store`) by run id or a unique prefix of one (`run_` may be left out);
 * none given: the newest. An unknown or ambiguous reference is a UsageError.
 */
export async function loadFromStore(store: TraceStore, ref: string | undefined, storeUrl: string): Promise<LoadedTrace> {
  let runId = ref;
  if (runId === undefined) {
    runId = (await store.list({ limit: 1 }))[0]?.runId;
    if (runId === undefined) throw new UsageError(`no traces in ${storeUrl}`);
  }
  let trace = /^[A-Za-z0-9_.-]{1,128}$/.test(runId) && !runId.includes('..') ? await store.get(runId) : undefined;
  if (trace === undefined) {
    const ids = (await store.list()).map((summary) => summary.runId);
    const wanted = runId;
    const matches = ids.filter((id) => id.startsWith(wanted) || id.startsWith(`run_${wanted}`));
    if (matches.length > 1) throw new UsageError(`"${wanted}" matches ${matches.length} traces in ${storeUrl}: ${matches.slice(0, 5).join(', ')}${matches.length > 5 ? ', …' : ''}`);
    const only = matches[0];
    if (only === undefined) {
      const suggestion = closestMatch(wanted, ids);
      throw new UsageError(`no trace "${wanted}" in ${storeUrl}.${suggestion === undefined ? '' : ` Did you mean "${suggestion}"?`}`, suggestion === undefined ? {} : { suggestion });
    }
    trace = await store.get(only);
    runId = only;
  }
  if (trace === undefined) throw new UsageError(`no trace "${runId}" in ${storeUrl}`);
  return { path: `${storeUrl}#${runId}`, shown: runId, trace: AgentTrace.fromJSON(trace) };
}

/** `agentlib trace ls --store <url>`: the store's traces, newest first (filters: `--agent`, `--status`, `--tag`, `--since`). */
export async function listFromStore(store: TraceStore, args: CommandArguments, context: CommandContext, since: number | undefined): Promise<number> {
  const limit = typeof args.limit === 'number' && args.limit > 0 ? args.limit : undefined;
  const query = {
    ...(typeof args.agent === 'string' && args.agent !== '' ? { agent: args.agent } : {}),
    ...(typeof args.status === 'string' && args.status !== '' ? { status: args.status } : {}),
    ...(typeof args.tag === 'string' && args.tag !== '' ? { tag: args.tag } : {}),
    ...(since === undefined ? {} : { since }),
  };
  const all = await store.list(query);
  const shown = limit === undefined ? all : all.slice(0, limit);
  if (args.json === true) {
    writeJson(context.io, { store: String(args.store), total: all.length, traces: shown });
    return 0;
  }
  if (all.length === 0) {
    context.io.stderr.write(`no traces in ${String(args.store)}\n`);
    return 0;
  }
  const rows = shown.map((s) => [cell(s.runId, 24), cell(safeCell(s.agentName ?? '-'), 14), cell(s.status ?? '-', 10), formatTimestamp(s.startedAt), cell(formatDuration(s.durationMs), 9, 'right'), cell(String(s.steps), 6, 'right'), cell(formatTokensGrouped(s.totalTokens), 8, 'right'), cell(formatCost(s.costUsd), 10, 'right')].join('  '));
  const head = [cell('ID', 24), cell('AGENT', 14), cell('STATUS', 10), cell('STARTED', 16), cell('DURATION', 9, 'right'), cell('STEPS', 6, 'right'), cell('TOKENS', 8, 'right'), cell('COST', 10, 'right')].join('  ');
  context.io.stdout.write(`${[head, ...rows].map((line) => line.trimEnd()).join('\n')}\n`);
  if (shown.length < all.length) context.io.stderr.write(`${all.length - shown.length} older trace(s) not shown (--limit 0 shows all)\n`);
  return 0;
}
