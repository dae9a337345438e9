/**
 * `agentlib trace view <trace>` on a terminal, without the CLI's parser: bin/agentlib.js calls this
 * before it loads the CLI, because loading and setting up yargs costs ~90 ms of the ~300 ms budget
 * to the viewer's first frame. It only takes the plain interactive case; everything else returns
 * undefined and the full CLI runs as usual (and reports problems the usual way).
 */
import { whyNotInteractive } from '../commands/chat/terminal-check.js';
import { loadTraceViewer, type TraceViewerModule, type ViewerLoader } from '../commands/trace/load-viewer.js';
import { latestTrace, loadTrace, traceLocation, type LoadedTrace } from '../commands/trace/resolve-trace.js';
import { colorEnabled, processIO, type CliIO } from './output.js';

/** What the fast path understood of `trace view [trace] [--dir <dir>] [--color | --no-color]`. */
export interface FastViewArguments {
  /** The trace: a file, an id or an id prefix; undefined for the latest trace. */
  ref?: string;
  /** `--dir`, when given. */
  dir?: string;
  /** False with `--no-color` / `--color=false`. */
  color: boolean;
}

/**
 * Parses the words after `trace view`. Undefined for anything the fast path leaves to the CLI:
 * other options (`--tree`, `--json`, `--help`, `--debug`, `--`, unknown ones), a repeated `--dir`,
 * an empty trace argument or more than one. No trace argument means the latest trace.
 */
export function parseFastView(words: readonly string[]): FastViewArguments | undefined {
  let ref: string | undefined;
  let dir: string | undefined;
  let color = true;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word === '--no-color' || word === '--color=false') color = false;
    else if (word === '--color' || word === '--color=true') color = true;
    else if (word === '--dir' || word.startsWith('--dir=')) {
      const value = word === '--dir' ? words[++i] : word.slice('--dir='.length);
      if (dir !== undefined || value === undefined || value.startsWith('-')) return undefined;
      dir = value;
    } else if (word.startsWith('-') || ref !== undefined) return undefined;
    else ref = word;
  }
  if (ref !== undefined && ref.trim() === '') return undefined;
  return { ...(ref === undefined ? {} : { ref }), ...(dir === undefined ? {} : { dir }), color };
}

/**
 * Runs `agentlib trace view <trace>` (`argv` as the CLI gets it) straight into the Ink viewer when
 * stdin and stdout are terminals and `CI` is unset, and resolves with its exit code. Resolves with
 * undefined, having written nothing, when the full CLI has to run instead: another command or
 * option, no terminal or CI (the CLI prints the static tree), a trace that cannot be found or read,
 * or a viewer that cannot be loaded (the CLI says so). The viewer starts loading before the trace
 * is read. Never rejects.
 */
export async function traceViewFastPath(argv: readonly string[], io: CliIO = processIO(), loadViewer: ViewerLoader = loadTraceViewer): Promise<number | undefined> {
  if (argv[0] !== 'trace' || argv[1] !== 'view') return undefined;
  const args = parseFastView(argv.slice(2));
  if (args === undefined || whyNotInteractive(io) !== undefined) return undefined;
  // The viewer loads while the trace file is found and read (its I/O overlaps the loading).
  const loadingViewer = new Promise<TraceViewerModule | undefined>((resolve) => resolve(loadViewer())).catch(() => undefined);
  let loaded: LoadedTrace;
  try {
    const location = traceLocation(io.cwd ?? process.cwd(), args.dir);
    loaded = await loadTrace(args.ref ?? (await latestTrace(location)), location);
  } catch {
    return undefined;
  }
  const viewer = await loadingViewer;
  if (viewer === undefined) return undefined;
  try {
    return await viewer.runTraceViewer(loaded.trace, {
      stdin: io.stdin as NodeJS.ReadStream,
      stdout: io.stdout as NodeJS.WriteStream,
      color: args.color && colorEnabled(io.stdout, io.env),
    });
  } catch (error) {
    // The viewer has started: report like the CLI does (loaded only now, it is rarely needed).
    const { exitCodeFor, formatError } = await import('./errors.js');
    io.stderr.write(formatError(error, { debug: false }));
    return exitCodeFor(error);
  }
}
