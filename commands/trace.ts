import { UsageError } from '../cli/usage-error.js';
import { closestMatch } from '../lib/core/suggest.js';
import type { CommandArguments, CommandContext } from './command-module.js';
import { diffCommand } from './trace/diff.js';
import { exportTrace } from './trace/export.js';
import { listCommand } from './trace/ls.js';
import { latestTrace, loadTrace, traceLocation, type LoadedTrace } from './trace/resolve-trace.js';
import { showTrace } from './trace/show.js';
import { statsCommand } from './trace/stats.js';
import { JSONLTraceStore } from '../lib/trace/stores/jsonl-trace-store.js';
import { openTraceStore } from '../lib/trace/stores/open-trace-store.js';
import type { TraceStore } from '../lib/trace/stores/types.js';
import { StorageError } from '../lib/storage/errors/index.js';
import { parseSince } from './trace/since.js';
import { listFromStore, loadFromStore } from './trace/store-source.js';
import { viewTrace } from './trace/view.js';

/** The actions of `agentlib trace`, in help order. */
export const TRACE_ACTIONS = ['view', 'ls', 'show', 'export', 'diff', 'stats'] as const;

type TraceAction = (typeof TRACE_ACTIONS)[number];

/** How many trace arguments each action takes (`view` without one opens the latest trace). */
const ARITY: Record<TraceAction, { count: number; optional?: true; usage: string }> = {
  view: { count: 1, optional: true, usage: 'agentlib trace view [trace] [--tree | --json]' },
  ls: { count: 0, usage: 'agentlib trace ls [--dir <dir>] [--limit <n>] [--json]' },
  show: { count: 1, usage: 'agentlib trace show <trace> [--json]' },
  export: { count: 1, usage: 'agentlib trace export <trace> --otlp <out.json>' },
  diff: { count: 2, usage: 'agentlib trace diff <a> <b> [--json]' },
  stats: { count: 0, usage: 'agentlib trace stats [--since 7d] [--by tool|model|agent] [--json]' },
};

function isAction(value: string): value is TraceAction {
  return (TRACE_ACTIONS as readonly string[]).includes(value);
}

/** The action word, checked (an unknown one is a UsageError with a did-you-mean). */
export function parseAction(value: unknown): TraceAction {
  const word = typeof value === 'string' ? value : '';
  if (isAction(word)) return word;
  if (word === 'list') return 'ls';
  const suggestion = closestMatch(word, TRACE_ACTIONS);
  const hint = suggestion === undefined ? '' : ` Did you mean "${suggestion}"?`;
  throw new UsageError(`unknown trace action "${word}"; expected one of ${TRACE_ACTIONS.join(', ')}.${hint}`, suggestion === undefined ? {} : { suggestion });
}

/**
 * `agentlib trace <action> [traces..]`: view (interactive, static when piped; the latest trace
 * when none is named), ls, show, export
 * (OTLP/JSON) and diff of saved traces. Trace arguments are ids in `.agentlib/traces` (or `--dir`),
 * unique id prefixes, or file paths.
 */
export async function run(args: CommandArguments, context: CommandContext): Promise<number> {
  const action = parseAction(args.action);
  const refs = (Array.isArray(args.traces) ? (args.traces as unknown[]) : []).map(String);
  const { count, optional, usage } = ARITY[action];
  if (refs.length !== count && !(optional === true && refs.length === 0)) {
    const expected = count === 0 ? 'no trace arguments' : count === 1 ? `${optional === true ? 'at most ' : ''}one trace (an id, id prefix or file)` : `${count} traces`;
    throw new UsageError(`trace ${action} takes ${expected}, got ${refs.length}: ${usage}`);
  }
  const cwd = context.io.cwd ?? process.cwd();
  const storeUrl = typeof args.store === 'string' && args.store !== '' ? args.store : undefined;
  const location = traceLocation(cwd, args.dir);
  const store = storeUrl === undefined ? undefined : openStore(storeUrl, cwd);
  try {
    if (action === 'stats') return await statsCommand(store ?? new JSONLTraceStore(location.dir), args, context);
    if (action === 'ls') {
      if (store === undefined) return await listCommand(args, context);
      return await listFromStore(store, args, context, typeof args.since === 'string' && args.since !== '' ? parseSince(args.since, Date.now()) : undefined);
    }
    if (store !== undefined && storeUrl !== undefined) {
      const fromStore = await Promise.all((refs.length === 0 ? [undefined] : refs).map((ref) => loadFromStore(store, ref, storeUrl)));
      return await act(action, fromStore, args, context, usage);
    }
    if (refs.length === 0) refs.push(await latestTrace(location));
    return await act(action, await Promise.all(refs.map((ref) => loadTrace(ref, location))), args, context, usage);
  } finally {
    await store?.close();
  }
}

/** `--store <url>`, opened (a URL it cannot open is a usage error). */
function openStore(url: string, cwd: string): TraceStore {
  try {
    return openTraceStore(url, { cwd });
  } catch (error) {
    if (StorageError.isInstance(error)) throw new UsageError(`--store: ${error.message}`, { cause: error });
    throw error;
  }
}

async function act(action: Exclude<TraceAction, 'ls' | 'stats'>, loaded: LoadedTrace[], args: CommandArguments, context: CommandContext, usage: string): Promise<number> {
  const [first, second] = loaded;
  if (first === undefined) throw new UsageError(`trace ${action} needs a trace: ${usage}`);
  switch (action) {
    case 'view':
      return viewTrace(first, args, context);
    case 'show':
      return showTrace(first, args, context);
    case 'export':
      return exportTrace(first, args, context);
    case 'diff':
      if (second === undefined) throw new UsageError(`trace diff needs two traces: ${usage}`);
      return diffCommand(first, second, args, context);
  }
}
