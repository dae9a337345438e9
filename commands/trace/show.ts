import { writeJson } from '../../cli/output.js';
import type { AgentTrace } from '../../lib/trace/agent-trace.js';
import type { CommandArguments, CommandContext } from '../command-module.js';
import { renderTraceTree } from './render-tree.js';
import type { LoadedTrace } from './resolve-trace.js';

/** Default line width when stdout is not a terminal. */
export const DEFAULT_WIDTH = 100;

/** The `--json` document of show / view: the file, the totals and the trace (format version 1). */
export function traceDocument(loaded: LoadedTrace): Record<string, unknown> {
  return { file: loaded.shown, totals: loaded.trace.totals(), trace: loaded.trace.toJSON() };
}

/** The static tree as `show` prints it, sized to stdout. */
export function staticTree(trace: AgentTrace, args: CommandArguments, context: CommandContext): string {
  const width = context.io.stdout.columns ?? DEFAULT_WIDTH;
  return renderTraceTree(trace, { width: width > 0 ? width : DEFAULT_WIDTH, ascii: args.ascii === true, color: context.color });
}

/** `agentlib trace show <trace> [--json] [--ascii]`: the static step tree, or the trace as JSON. */
export function showTrace(loaded: LoadedTrace, args: CommandArguments, context: CommandContext): number {
  if (args.json === true) writeJson(context.io, traceDocument(loaded));
  else context.io.stdout.write(staticTree(loaded.trace, args, context));
  return 0;
}
