import type { AgentTrace } from '../../lib/trace/agent-trace.js';
import type { CommandArguments, CommandContext } from '../command-module.js';
import { importTui } from '../import-tui.js';
import type { LoadedTrace } from './resolve-trace.js';
import { showTrace } from './show.js';

/** The options of the Ink trace viewer (`tui/trace-viewer/run-viewer.ts`). */
export interface TraceViewerOptions {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  color: boolean;
}

/** What `tui/trace-viewer/run-viewer.js` exports. */
export interface TraceViewerModule {
  runTraceViewer(trace: AgentTrace, options: TraceViewerOptions): Promise<number>;
}

/** Loads the viewer module, or returns undefined when it is not there (not built or installed). */
export type ViewerLoader = () => Promise<TraceViewerModule | undefined>;

// A computed URL: the viewer is optional at compile time and loads Ink only when it runs.
const VIEWER_MODULE = new URL('../../tui/trace-viewer/run-viewer.js', import.meta.url);

/** Imports the Ink viewer (its bundle when built); undefined when the module (or one it needs) cannot be found. */
export const loadTraceViewer: ViewerLoader = async () => {
  try {
    const loaded = (await importTui(VIEWER_MODULE)) as Partial<TraceViewerModule>;
    return typeof loaded.runTraceViewer === 'function' ? (loaded as TraceViewerModule) : undefined;
  } catch (error) {
    if (isModuleNotFound(error)) return undefined;
    throw error;
  }
};

function isModuleNotFound(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/** Whether `view` can be interactive: stdin and stdout are terminals and no static output was asked for. */
export function interactive(args: CommandArguments, context: CommandContext): boolean {
  return args.json !== true && args.tree !== true && context.io.stdout.isTTY === true && context.io.stdin?.isTTY === true;
}

/**
 * `agentlib trace view <trace>`: the interactive Ink viewer on a terminal; with `--tree` or
 * `--json`, or when stdin or stdout is not a terminal, the static tree (or JSON) as `show` prints it.
 * When the viewer cannot be loaded, it falls back to the static tree with a note on stderr.
 */
export async function viewTrace(loaded: LoadedTrace, args: CommandArguments, context: CommandContext, loadViewer: ViewerLoader = loadTraceViewer): Promise<number> {
  if (!interactive(args, context)) return showTrace(loaded, args, context);
  const viewer = await loadViewer();
  if (viewer === undefined) {
    context.io.stderr.write('note: the interactive trace viewer is not available; printing the static tree\n');
    return showTrace(loaded, args, context);
  }
  const { io } = context;
  return viewer.runTraceViewer(loaded.trace, {
    stdin: io.stdin as NodeJS.ReadStream,
    stdout: io.stdout as NodeJS.WriteStream,
    color: context.color,
  });
}
