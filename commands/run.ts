import { failedRunResult } from '../lib/agent/execute-run.js';
import type { AgentResult } from '../lib/agent/result.js';
import type { AgentEvent, RunStatus } from '../lib/events/types.js';
import type { ResponseCache } from '../lib/agent/types.js';
import { redactSecrets } from '../lib/events/redact.js';
import { ExitCode } from '../cli/exit-codes.js';
import { colorEnabled, writeJson } from '../cli/output.js';
import type { CommandArguments, CommandContext } from './command-module.js';
import { approvalHandler } from './run/approvals.js';
import { agentRequestFrom, optionalString } from './run/agent-request.js';
import { parseVars } from './run/parse-vars.js';
import { readPrompt } from './run/read-prompt.js';
import { cliMcpConnections, toolsChangeLine, type CliMcpConnections } from './run/mcp-connections.js';
import { resolveAgent } from './run/resolve-agent.js';
import { resultDocument } from './run/result-document.js';
import { LiveTrace } from './run/live-trace.js';
import { createProgress } from './run/spinner.js';
import { TextRenderer } from './run/text-renderer.js';

/** `--output-format` values. */
export const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const;
type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * Exit code of a finished run: 0 when the agent finished its work, 130 when it was interrupted,
 * 3 when it stopped on a limit (iterations, budget) or failed.
 */
export function exitCodeForStatus(status: RunStatus): number {
  switch (status) {
    case 'cancelled':
      return ExitCode.INTERRUPTED;
    case 'max-iterations':
    case 'budget-exceeded':
    case 'error':
      return ExitCode.RUNTIME;
    default:
      return ExitCode.OK;
  }
}


/** Closes a cache the command opened (`--cache`, or the agent file's `cache:`): its connection or file handle. */
async function closeCache(cache: ResponseCache | undefined): Promise<void> {
  const close = (cache as { close?: () => Promise<void> } | undefined)?.close;
  if (typeof close === 'function') await close.call(cache);
}

/** `agentlib run <agent> [prompt]`: one run of an agent YAML or template, printed as text, JSON or JSONL events. */
export async function run(args: CommandArguments, context: CommandContext): Promise<number> {
  const { io } = context;
  const cwd = io.cwd ?? process.cwd();
  const format = (args.outputFormat ?? 'text') as OutputFormat;
  const quiet = args.quiet === true;
  const vars = parseVars(args.var as unknown[] | undefined);
  const progress = await createProgress(io, format === 'text' && !quiet, { signal: context.signal });
  const renderer = format === 'text' ? new TextRenderer(io, progress, { quiet, color: colorEnabled(io.stderr, io.env) && args.color }) : undefined;
  progress.update('loading agent');
  const mcp = cliMcpConnections(io, { trust: args.trustMcp === true, cwd, ...(quiet ? {} : { onToolsChanged: (change) => void io.stderr.write(toolsChangeLine(change)) }) });
  try {
    return await runLoaded(args, context, { cwd, format, quiet, vars, progress, renderer, mcp });
  } finally {
    progress.stop();
    await mcp.close();
  }
}

interface RunSetup {
  cwd: string;
  format: OutputFormat;
  quiet: boolean;
  vars: Record<string, string>;
  progress: Awaited<ReturnType<typeof createProgress>>;
  renderer: TextRenderer | undefined;
  mcp: CliMcpConnections;
}

async function runLoaded(args: CommandArguments, context: CommandContext, setup: RunSetup): Promise<number> {
  const { io } = context;
  const { cwd, format, quiet, vars, progress, renderer, mcp } = setup;
  let resolved;
  try {
    resolved = await resolveAgent({ ...agentRequestFrom(args, { cwd, env: io.env, vars }, '--timeout'), mcpTools: mcp.mcpTools, followMcpTools: mcp.follow });
  } finally {
    progress.pause();
  }
  const prompt = await readPrompt(optionalString(args.prompt), io);
  const approve = await approvalHandler(optionalString(args.approve), io, { beforePrompt: () => progress.pause(), afterPrompt: () => progress.resume() });

  const trace = new LiveTrace(args.trace as string | boolean | undefined, cwd);
  const handle = (event: AgentEvent): void => {
    trace.handle(event);
    if (format === 'stream-json') io.stdout.write(`${JSON.stringify(redactSecrets(event))}\n`);
    else renderer?.handle(event);
  };
  const { agent } = resolved;
  const runOptions = { signal: context.signal, approve, context: { ...vars } };
  let result: AgentResult | undefined;
  let failure: unknown;
  try {
    if (agent.cache !== undefined) {
      // Streams bypass the cache (the spec): with a cache the run is not streamed, so a repeated
      // prompt is answered from it; the answer is printed when the run ends.
      agent.addObserver({ name: 'agentlib-run', blocking: true, onEvent: handle });
      result = await agent.run(prompt, runOptions);
    } else {
      const stream = agent.stream(prompt, runOptions);
      for await (const event of stream) handle(event);
      result = await stream.result;
    }
  } catch (error) {
    failure = error;
    result = failedRunResult(error);
  } finally {
    progress.stop();
    await closeCache(agent.cache);
  }
  const tracePath = await trace.finish(result);
  if (format === 'json') writeJson(io, resultDocument(result, tracePath, failure));
  else if (renderer !== undefined && result !== undefined && failure === undefined) renderer.finish(result, tracePath);
  else if (failure !== undefined && tracePath !== undefined && !quiet) io.stderr.write(`trace ${tracePath}\n`);
  if (resolved.replay !== undefined && resolved.replay.unused > 0 && failure === undefined) {
    io.stderr.write(`warning: ${resolved.replay.unused} recorded provider call(s) in the cassette were not used\n`);
  }
  if (resolved.recorder !== undefined && !quiet && format !== 'stream-json') io.stderr.write(`recorded ${resolved.recorder.recorded} provider call(s) to ${resolved.recorder.path}\n`);
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrown as caught: main() maps it to the exit code
  if (failure !== undefined) throw failure;
  const status = (result as AgentResult).status;
  if (status !== 'completed' && format === 'text') io.stderr.write(`agentlib: the run stopped: ${status}\n`);
  return exitCodeForStatus(status);
}
