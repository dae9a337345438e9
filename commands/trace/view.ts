import { whyNotInteractive } from '../chat/terminal-check.js';
import type { CommandArguments, CommandContext } from '../command-module.js';
import { loadTraceViewer, type ViewerLoader } from './load-viewer.js';
import type { LoadedTrace } from './resolve-trace.js';
import { showTrace } from './show.js';

export type { TraceViewerModule, TraceViewerOptions, ViewerLoader } from './load-viewer.js';

/** The note on stderr when `view` prints the static tree because it cannot be interactive (`reason`: see `whyNotInteractive`). */
export function staticNote(reason: string): string {
  return `note: trace view is not interactive here (${reason}); printing the static tree. Use --tree or --json (or trace show) for static output.\n`;
}

/**
 * `agentlib trace view <trace>`: the interactive Ink viewer on a terminal; with `--tree` or
 * `--json` the static tree (or JSON) as `show` prints it. When stdin or stdout is not a terminal, or
 * `CI` is set, it prints the static tree too, with a note on stderr saying why and pointing to
 * `--tree` / `--json`. When the viewer cannot be loaded, it falls back to the static tree with a note.
 */
export async function viewTrace(loaded: LoadedTrace, args: CommandArguments, context: CommandContext, loadViewer: ViewerLoader = loadTraceViewer): Promise<number> {
  if (args.json === true || args.tree === true) return showTrace(loaded, args, context);
  // The terminal check of `agentlib chat`: Ink needs a terminal on both ends, and draws only its
  // last frame under CI.
  const reason = whyNotInteractive(context.io);
  if (reason !== undefined) {
    context.io.stderr.write(staticNote(reason));
    return showTrace(loaded, args, context);
  }
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
