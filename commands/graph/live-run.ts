import type { CliIO } from '../../cli/output.js';
import { ExitCode } from '../../cli/exit-codes.js';
import type { AgentGraph } from '../../lib/graph/agent-graph.js';
import type { GraphStream } from '../../lib/graph/graph-stream.js';
import { diagramNodes } from '../../lib/graph/render/diagram-nodes.js';
import type { GraphResult, GraphRunOptions } from '../../lib/graph/types.js';
import { whyNotInteractive } from '../chat/terminal-check.js';
import { importTui } from '../import-tui.js';
import type * as ViewModule from '../../tui/graph/run-graph-view.js';
import { locateBoxes } from '../../tui/graph/diagram-paint.js';

/**
 * Whether `agentlib graph run` draws the live view: text output (the default) on a terminal, not in
 * CI. CI counts as Ink counts it (`CI` or `CONTINUOUS_INTEGRATION` set to anything but `0` or
 * `false`, even empty): there Ink would draw only the last frame.
 */
export function wantsLiveView(outputFormat: unknown, io: CliIO): boolean {
  const ci = (name: string): boolean => name in io.env && io.env[name] !== undefined && io.env[name] !== '0' && io.env[name] !== 'false';
  return (outputFormat === undefined || outputFormat === 'text') && whyNotInteractive(io) === undefined && !ci('CI') && !ci('CONTINUOUS_INTEGRATION');
}

/** What the live run needs from the command. */
export interface LiveRunOptions {
  io: CliIO;
  color: boolean;
  /** The run's options (checkpoint store, thread, metadata, signal); resumes reuse them. */
  runOptions: GraphRunOptions;
  /** Starts the run (graph.stream with the prompt). */
  start: () => GraphStream;
  /** Called with every stream the view starts (the run, then each resume in place), e.g. to trace its result. */
  track?: (stream: GraphStream) => GraphStream;
  /** The nodes that ran before (resume and fork: the checkpoint's `state.history`), drawn done. */
  history?: readonly string[];
  /** `agentlib graph resume <id> --response "…"` plus the store flag, for a run left waiting. */
  resumeCommand: (interruptId: string) => string;
}

/**
 * `agentlib graph run`, `resume` and `fork` on a terminal: the Ink graph view (tui/graph) draws the run live and takes
 * interrupt answers in place (resumed in this process). Returns the exit code: 0 completed, 5 left
 * waiting on a question (the resume command printed), 130 cancelled, 3 failed (the error thrown).
 */
export async function liveRun(graph: AgentGraph, options: LiveRunOptions): Promise<number> {
  const diagramText = await graph.visualize('ascii', { spacing: 'compact' });
  const { runGraphView } = (await importTui(new URL('../../tui/graph/run-graph-view.js', import.meta.url))) as typeof ViewModule;
  const nodes = diagramNodes(graph.definition());
  const diagram = diagramText.trimEnd().split('\n');
  let latest: GraphResult | undefined;
  const track = (stream: GraphStream): GraphStream => {
    stream.result.then((r) => void (latest = r), () => undefined);
    return options.track ? options.track(stream) : stream;
  };
  const io = options.io;
  const end = await runGraphView(
    { graph: graph.name, nodes, start: () => track(options.start()), resume: (id, answer) => track(graph.streamResume(id, answer, options.runOptions)), ...(options.history === undefined ? {} : { history: options.history }) },
    { stdin: io.stdin as NodeJS.ReadStream, stdout: io.stdout as NodeJS.WriteStream, stderr: io.stderr as NodeJS.WriteStream, color: options.color, diagram, places: locateBoxes(diagram, nodes) },
  );
  if (end.kind === 'error') throw end.error;
  if (end.kind === 'left') {
    for (const pending of latest?.interrupts ?? []) {
      io.stderr.write(`interrupted at ${pending.path.join(' > ')}: ${pending.prompt}\n`);
      io.stderr.write(`  resume: ${options.resumeCommand(pending.id)}\n`);
    }
    return ExitCode.WAITING_FOR_INPUT;
  }
  const result = end.result;
  if (result.status === 'cancelled') return ExitCode.INTERRUPTED;
  return result.status === 'completed' ? ExitCode.OK : ExitCode.RUNTIME;
}
