import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { UsageError } from '../../cli/usage-error.js';
import { ExitCode } from '../../cli/exit-codes.js';
import type { CheckpointStore } from '../../lib/graph/checkpoint/types.js';
import { openCheckpointStore } from '../../lib/graph/checkpoint/open-store.js';
import { loadGraph } from '../../lib/graph/yaml/load-graph.js';
import { batchedLines } from '../../lib/serve/access-log.js';
import { createGraphServeApp } from '../../lib/serve/graph/graph-app.js';
import { listen, type RunningServer } from '../../lib/serve/server.js';
import { loadYaml } from '../../lib/config/yaml-module.js';
import { closeAllStorage } from '../../lib/storage/connection-registry.js';
import type { CommandArguments, CommandContext } from '../command-module.js';
import { graphCassettes } from '../graph/cassettes.js';
import type { ServeSettings } from './serve-options.js';
import type { TraceStore } from '../../lib/trace/stores/types.js';
import { openTraceStoreFlag } from '../run/trace-store-flag.js';

/** The default checkpoint store of a served graph. */
export const DEFAULT_GRAPH_CHECKPOINT = 'sqlite://';

/** True when `ref` names a YAML file whose top-level `kind` is `graph` (`agentlib serve graph.yaml`). */
export function isGraphFile(ref: string, cwd: string): boolean {
  if (!/\.ya?ml$/i.test(ref)) return false;
  let text: string;
  try {
    text = readFileSync(isAbsolute(ref) ? ref : resolve(cwd, ref), 'utf8');
  } catch {
    return false;
  }
  try {
    const value = loadYaml().parse(text) as unknown;
    return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'graph';
  } catch {
    return false; // the agent loader reports the YAML error with its position
  }
}

/** Agent flags that have no meaning for a graph (its agent files name their own). */
const AGENT_ONLY: readonly (readonly [string, string])[] = [
  ['sessionStore', '--session-store'],
  ['model', '--model'],
  ['provider', '--provider'],
  ['maxIterations', '--max-iterations'],
  ['var', '--var'],
];

/**
 * `agentlib serve graph.yaml`: the graph behind the HTTP layer (createGraphServeApp), its threads
 * on `--checkpoint` (default `sqlite://`; several servers sharing a PostgreSQL store resume each
 * other's interrupted runs). Stops like a served agent (SIGTERM / Ctrl+C drain).
 */
export async function serveGraph(
  args: CommandArguments,
  context: CommandContext,
  setup: { file: string; cwd: string; settings: ServeSettings; traceUrl: string | undefined; stop: () => Promise<'SIGTERM' | 'SIGINT'> },
): Promise<number> {
  const { io } = context;
  const { settings, cwd } = setup;
  for (const [key, flag] of AGENT_ONLY) if (args[key] !== undefined) throw new UsageError(`${flag} applies to an agent file; the agent files of graph ${setup.file} name their own (set it there).`);
  if (args.trustMcp === true) throw new UsageError('--trust-mcp: the agent nodes of a served graph cannot connect MCP servers yet; remove mcp: from their agent files.');
  if (args.providerTimeout !== undefined) throw new UsageError('--provider-timeout applies to an agent file; set the provider timeouts in the agent files of the graph.');
  const cassettes = graphCassettes({ ...(typeof args.replay === 'string' ? { replay: args.replay } : {}), cwd, env: io.env, reuse: true });
  const graph = await loadGraph(resolve(cwd, setup.file), cassettes.loadOptions);
  if (typeof args.replay === 'string') cassettes.loaded();
  const checkpointUrl = typeof args.checkpoint === 'string' ? args.checkpoint : DEFAULT_GRAPH_CHECKPOINT;
  let store: CheckpointStore;
  try {
    store = await openCheckpointStore(checkpointUrl, { cwd });
  } catch (error) {
    throw new UsageError(`--checkpoint: ${(error as Error).message}`);
  }
  // Each request's graph run trace goes to the trace store (default SQLite .agentlib/agentlib.db) when the run ends.
  let traceStore: TraceStore | undefined;
  try {
    traceStore = setup.traceUrl === undefined ? undefined : openTraceStoreFlag(setup.traceUrl, cwd);
  } catch (error) {
    await store.close();
    throw error;
  }
  const accessLog = batchedLines((text) => void io.stderr.write(text));
  const served = createGraphServeApp({
    graph,
    checkpointStore: store,
    ...(traceStore === undefined ? {} : { traceStore }),
    maxConcurrency: settings.maxConcurrency,
    timeoutMs: settings.timeoutMs,
    bodyTimeoutMs: settings.bodyTimeoutMs,
    version: context.version,
    ...(settings.authToken === undefined ? {} : { authToken: settings.authToken }),
    ...(settings.cors === undefined ? {} : { cors: settings.cors }),
    ...(settings.quiet ? {} : { accessLog: accessLog.log }),
    playground: settings.playground,
    logError: (message, error) => void io.stderr.write(`agentlib serve: ${message}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`),
  });
  let server: RunningServer;
  try {
    server = await listen(served, { port: settings.port, host: settings.host });
  } catch (error) {
    await store.close();
    await traceStore?.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`Port ${settings.port} on ${settings.host} is in use; pick another with --port (0: any free port).`);
    throw error;
  }
  const url = server.url;
  io.stdout.write(
    [
      `Serving graph "${graph.name}" (${graph.nodeNames.join(', ')}) at ${url}`,
      `  POST ${url}/invoke    run, JSON answer (an interrupted run answers with interrupt_id, prompt, payload)`,
      `  POST ${url}/stream    run with server-sent events`,
      `  POST ${url}/resume    answer an interrupt: { "interrupt_id", "response" }`,
      `  GET  ${url}/threads/<thread_id>/checkpoints  ${url}/checkpoints/<id>`,
      `  GET  ${url}/health  ${url}/schema`,
      ...(settings.playground ? [`  GET  ${url}/playground  run it in the browser: node progress, answer interrupts`] : []),
      `Checkpoints: ${checkpointUrl}`,
      setup.traceUrl === undefined ? 'Traces: not kept (--no-trace-store)' : `Traces: each run's is saved to ${setup.traceUrl} (agentlib trace ls --store ${setup.traceUrl})`,
      settings.authToken === undefined ? 'Auth: none (loopback only)' : 'Auth: Authorization: Bearer <token> required',
      ...(settings.cors === undefined ? [] : [`CORS: ${settings.cors}`]),
      '',
    ].join('\n'),
  );
  io.stderr.write('Press Ctrl+C to stop.\n');
  const why = await setup.stop();
  io.stderr.write(`${why}: shutting down; in-flight runs get ${settings.graceMs / 1000} s\n`);
  const drained = await server.close(settings.graceMs);
  accessLog.flush();
  io.stderr.write(`stopped (${drained.finished} run(s) finished, ${drained.aborted} aborted)\n`);
  await store.close();
  await traceStore?.close();
  await closeAllStorage();
  return why === 'SIGINT' ? ExitCode.INTERRUPTED : ExitCode.OK;
}
