import { readFile, stat } from 'node:fs/promises';
import { writeJson } from '../../cli/output.js';
import type { CommandArguments, CommandContext } from '../command-module.js';
import { formatCost, formatDuration, formatTokensGrouped } from '../../lib/core/format-units.js';
import { cell, formatTimestamp, safeCell, table } from './format.js';
import type { TraceTotals } from '../../lib/trace/stores/types.js';
import { listTraceFiles, shownPath, traceIdOf, traceLocation } from './resolve-trace.js';

/** One row of `agentlib trace ls`. */
export interface TraceListEntry extends TraceTotals {
  /** The trace id (file name without `.jsonl`; the run id for traces `agentlib run` saved). */
  id: string;
  /** The file, relative to the working directory when inside it. */
  file: string;
  runId?: string;
  agent?: string;
  provider?: string;
  model?: string;
  status?: string;
  /** Run start in ms since the epoch (the file's modification time when the trace has none). */
  startedAt: number;
  durationMs: number;
  /** Set when the trace ends early: its run never finished it (killed, or still running), or its last line is cut off. */
  incomplete?: true;
  /** Set when the file is not a readable trace (the other fields are then partial). */
  invalid?: string;
}

type Json = Record<string, unknown>;

/**
 * Summarises a trace file cheaply: the header's run fields, plus tokens, cost and counts summed
 * from the step lines without validating them (`trace show` validates).
 */
export async function summarizeTraceFile(path: string, cwd: string): Promise<TraceListEntry> {
  const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
  const entry: TraceListEntry = {
    id: traceIdOf(path),
    file: shownPath(path, cwd),
    startedAt: info.mtimeMs,
    durationMs: 0,
    steps: 0,
    llmCalls: 0,
    toolCalls: 0,
    errors: 0,
    totalTokens: 0,
    costUsd: 0,
  };
  let header: Json | undefined;
  let first = Infinity;
  let last = -Infinity;
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const raw = (lines[index] ?? '').trim();
    if (raw === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      // A last line with no line break after it was cut off mid-write (see parseTraceJSONL).
      if (index === lines.length - 1 && raw.startsWith('{') && header !== undefined) entry.incomplete = true;
      else entry.invalid = `line ${index + 1}: invalid JSON`;
      break;
    }
    if (typeof value !== 'object' || value === null) {
      entry.invalid = `line ${index + 1}: not a JSON object`;
      break;
    }
    const obj = value as Json;
    if (header === undefined) {
      if (obj['type'] !== 'trace' || obj['version'] !== 1) {
        entry.invalid = 'line 1: not a version 1 trace header';
        break;
      }
      header = obj;
      if (obj['incomplete'] === true) entry.incomplete = true;
      continue;
    }
    entry.steps++;
    if (obj['type'] === 'llm_call') entry.llmCalls++;
    if (obj['type'] === 'tool_execution') entry.toolCalls++;
    if (obj['status'] === 'error') entry.errors++;
    const usage = obj['usage'] as Json | undefined;
    if (typeof usage?.['totalTokens'] === 'number') entry.totalTokens += usage['totalTokens'];
    if (typeof obj['costUsd'] === 'number') entry.costUsd += obj['costUsd'];
    const start = obj['startedAt'];
    const duration = obj['durationMs'];
    if (typeof start === 'number') {
      first = Math.min(first, start);
      last = Math.max(last, start + (typeof duration === 'number' ? duration : 0));
    }
  }
  if (header === undefined) {
    entry.invalid ??= 'empty file';
    return entry;
  }
  for (const [from, to] of [['runId', 'runId'], ['agentName', 'agent'], ['provider', 'provider'], ['model', 'model'], ['status', 'status']] as const) {
    if (typeof header[from] === 'string') entry[to] = header[from];
  }
  const started = typeof header['startedAt'] === 'number' ? header['startedAt'] : Number.isFinite(first) ? first : undefined;
  const ended = typeof header['endedAt'] === 'number' ? header['endedAt'] : Number.isFinite(last) ? last : undefined;
  if (started !== undefined) entry.startedAt = started;
  if (started !== undefined && ended !== undefined) entry.durationMs = Math.max(0, ended - started);
  entry.costUsd = Math.round(entry.costUsd * 1e12) / 1e12;
  return entry;
}

/** Every trace in `dir`, newest first (by run start, then file name). */
export async function listTraces(dir: string, cwd: string): Promise<TraceListEntry[]> {
  const files = await listTraceFiles(dir);
  const entries = await Promise.all(files.map((file) => summarizeTraceFile(file, cwd)));
  return entries.sort((a, b) => b.startedAt - a.startedAt || b.id.localeCompare(a.id));
}

/** The shortest prefix (at least `min` characters) of each id that no other id starts with. */
export function shortIds(ids: readonly string[], min = 12): Map<string, string> {
  const out = new Map<string, string>();
  for (const id of ids) {
    let length = Math.min(min, id.length);
    while (length < id.length && ids.some((other) => other !== id && other.startsWith(id.slice(0, length)))) length++;
    out.set(id, id.slice(0, length));
  }
  return out;
}

/** `agentlib trace ls [--dir d] [--limit n] [--json]`. */
export async function listCommand(args: CommandArguments, context: CommandContext): Promise<number> {
  const { io } = context;
  const cwd = io.cwd ?? process.cwd();
  const location = traceLocation(cwd, args.dir);
  const limit = typeof args.limit === 'number' && Number.isFinite(args.limit) && args.limit > 0 ? Math.floor(args.limit) : Infinity;
  const all = await listTraces(location.dir, cwd);
  const shown = all.slice(0, limit);
  const dir = shownPath(location.dir, cwd);
  if (args.json === true) {
    writeJson(io, { dir, total: all.length, traces: shown });
    return 0;
  }
  if (all.length === 0) {
    io.stderr.write(`no traces in ${dir} (\`agentlib run\` saves one per run there)\n`);
    return 0;
  }
  const short = shortIds(all.map((entry) => entry.id));
  const rows = [['ID', 'AGENT', 'STATUS', 'STARTED', 'DURATION', 'STEPS', 'TOKENS', 'COST']];
  for (const entry of shown) {
    rows.push([
      short.get(entry.id) ?? entry.id,
      cell(entry.agent ?? '-', 24).trimEnd(),
      entry.invalid !== undefined ? 'invalid' : entry.incomplete === true ? 'incomplete' : (entry.status ?? '-'),
      formatTimestamp(entry.startedAt),
      formatDuration(entry.durationMs),
      String(entry.steps),
      formatTokensGrouped(entry.totalTokens),
      formatCost(entry.costUsd),
    ]);
  }
  io.stdout.write(`${table(rows, new Set([4, 5, 6, 7])).join('\n')}\n`);
  for (const entry of shown) if (entry.invalid !== undefined) io.stderr.write(`warning: ${safeCell(`${entry.file}: ${entry.invalid}`)}\n`);
  if (shown.length < all.length) io.stderr.write(`${all.length - shown.length} older trace(s) not shown (--limit 0 shows all)\n`);
  return 0;
}
