import { AgentlibError } from '../lib/core/errors/agentlib-error.js';
import { buildAgentConfig } from '../lib/config/load-agent.js';
import { loadAgentConfig } from '../lib/config/parse-agent-config.js';
import { openConfiguredSessionStore, sessionStoreUrl } from '../lib/config/session-settings.js';
import type { SessionSettings } from '../lib/config/types.js';
import { DEFAULT_SESSION_STORE_URL } from '../lib/sessions/open-session-store.js';
import type { SessionStore } from '../lib/sessions/types.js';
import type { AgentConfig } from '../lib/agent/types.js';
import type { TraceStore } from '../lib/trace/stores/types.js';
import { StorageUrlError } from '../lib/storage/index.js';
import { batchedLines } from '../lib/serve/access-log.js';
import { createServeApp } from '../lib/serve/app.js';
import { listen, type RunningServer } from '../lib/serve/server.js';
import { ExitCode } from '../cli/exit-codes.js';
import { UsageError } from '../cli/usage-error.js';
import type { CommandArguments, CommandContext } from './command-module.js';
import { agentRequestFrom } from './run/agent-request.js';
import { parseVars } from './run/parse-vars.js';
import { planAgentLoad, withCacheFlag } from './run/resolve-agent.js';
import { cliMcpConnections, toolsChangeLine, type CliMcpConnections } from './run/mcp-connections.js';
import { toolListHolder } from '../lib/mcp/sync-agent-tools.js';
import { banner } from './serve/banner.js';
import { serveSettings } from './serve/serve-options.js';
import { isGraphFile, serveGraph } from './serve/serve-graph.js';
import { openTraceStoreFlag, traceStoreUrl } from './run/trace-store-flag.js';

/** One line for library errors (provider failures are expected events), the stack for anything else. */
function describeFailure(error: unknown): string {
  if (AgentlibError.isInstance(error)) return `${error.name}: ${error.message}`;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * The session store of the server: `--session-store`, else the file's `session:` store, else the
 * SQLite file `.agentlib/agentlib.db`; `memory://` keeps the bounded in-memory store (undefined).
 */
async function serveSessions(settings: SessionSettings | undefined, agentName: string, file: string, flag: string | undefined): Promise<SessionStore | undefined> {
  const url = flag ?? (settings === undefined ? DEFAULT_SESSION_STORE_URL : sessionStoreUrl(settings, file));
  if (url === 'memory://' || url === 'memory') return undefined;
  try {
    return await openConfiguredSessionStore(settings ?? {}, agentName, file, url);
  } catch (error) {
    if (StorageUrlError.isInstance(error)) throw new UsageError(`--session-store: ${error.message}`);
    throw error;
  }
}

/** Resolves when SIGTERM arrives or `signal` (Ctrl+C) aborts; tells which. */
function stopRequested(signal: AbortSignal): Promise<'SIGTERM' | 'SIGINT'> {
  return new Promise((resolve) => {
    const onTerm = (): void => {
      signal.removeEventListener('abort', onAbort);
      resolve('SIGTERM');
    };
    const onAbort = (): void => {
      process.off('SIGTERM', onTerm);
      resolve('SIGINT');
    };
    process.once('SIGTERM', onTerm);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * `agentlib serve <agent>`: builds the agent's config once (provider, tools, policy), serves it
 * with a fresh Agent per request, prints the URL and routes, logs requests on stderr, and on
 * SIGTERM or Ctrl+C drains (new requests 503, in-flight runs get `--shutdown-grace` seconds).
 */
export async function run(args: CommandArguments, context: CommandContext): Promise<number> {
  const { io } = context;
  const cwd = io.cwd ?? process.cwd();
  const settings = serveSettings(args, io.env, cwd);
  if (typeof args.agent === 'string' && isGraphFile(args.agent, cwd)) {
    return serveGraph(args, context, { file: args.agent, cwd, settings, traceUrl: traceStoreUrl(args.traceStore), stop: () => stopRequested(context.signal) });
  }
  if (args.checkpoint !== undefined) throw new UsageError('--checkpoint applies to a graph file (kind: graph); an agent keeps its conversations with --session-store.');
  // Checked before the agent file loads, so a bad URL is a usage error at once.
  const traceUrl = traceStoreUrl(args.traceStore);
  const vars = parseVars(args.var as unknown[] | undefined);
  // Every request is a run on the same cassette: --replay answers a recorded run as often as it is asked.
  const mcp = cliMcpConnections(io, { trust: args.trustMcp === true, cwd, onToolsChanged: (change) => void io.stderr.write(`agentlib serve: ${toolsChangeLine(change)}`) });
  try {
    return await serveWith(args, context, { cwd, settings, vars, mcp, traceUrl });
  } finally {
    await mcp.close();
  }
}

async function serveWith(
  args: CommandArguments,
  context: CommandContext,
  setup: { cwd: string; settings: ReturnType<typeof serveSettings>; vars: Record<string, string>; mcp: CliMcpConnections; traceUrl: string | undefined },
): Promise<number> {
  const { io } = context;
  const { cwd, settings, vars, mcp, traceUrl } = setup;
  const request = { ...agentRequestFrom(args, { cwd, env: io.env, vars }, '--provider-timeout'), reuseRecordings: true, mcpTools: mcp.mcpTools };
  const plan = await withCacheFlag(planAgentLoad(request), request);
  // Requests choose their session with session_id: the file's `session:` names the store only.
  const { session: sessionSettings, ...fileConfig } = await loadAgentConfig(plan.file, plan.options);
  if (sessionSettings?.id !== undefined) throw new UsageError(`${plan.file}: session.id has no meaning for agentlib serve (each request names its session with session_id); remove it.`);
  const built = await buildAgentConfig(fileConfig, plan.options, plan.file);
  // Each request builds a fresh Agent from this config: its tool list follows the MCP servers' changes.
  const tools = [...(built.tools ?? [])];
  const agentConfig = { ...built, tools };
  mcp.follow(toolListHolder(tools));
  const sessions = await serveSessions(sessionSettings, fileConfig.name ?? 'agent', plan.file, typeof args.sessionStore === 'string' ? args.sessionStore : undefined);
  try {
    return await serveOn(context, { cwd, settings, vars, agentConfig, sessions, traceUrl });
  } finally {
    await sessions?.close();
  }
}

async function serveOn(
  context: CommandContext,
  setup: { cwd: string; settings: ReturnType<typeof serveSettings>; vars: Record<string, string>; agentConfig: AgentConfig; sessions: SessionStore | undefined; traceUrl: string | undefined },
): Promise<number> {
  const { cwd, settings, vars, agentConfig, sessions, traceUrl } = setup;
  // Each request's run trace goes to the trace store (default SQLite .agentlib/agentlib.db) when the run ends.
  const traceStore = traceUrl === undefined ? undefined : openTraceStoreFlag(traceUrl, cwd);
  try {
    return await listenAndWait(context, { settings, vars, agentConfig, sessions, traceStore, traceUrl });
  } finally {
    await traceStore?.close();
  }
}

async function listenAndWait(
  context: CommandContext,
  setup: { settings: ReturnType<typeof serveSettings>; vars: Record<string, string>; agentConfig: AgentConfig; sessions: SessionStore | undefined; traceStore: TraceStore | undefined; traceUrl: string | undefined },
): Promise<number> {
  const { io } = context;
  const { settings, vars, agentConfig, sessions, traceStore, traceUrl } = setup;
  // Access-log lines of one event-loop turn go to stderr in one write (a write per request costs a system call).
  const accessLog = batchedLines((text) => void io.stderr.write(text));
  const served = createServeApp({
    agent: agentConfig,
    ...(sessions === undefined ? {} : { sessions }),
    ...(traceStore === undefined ? {} : { traceStore }),
    maxConcurrency: settings.maxConcurrency,
    timeoutMs: settings.timeoutMs,
    bodyTimeoutMs: settings.bodyTimeoutMs,
    playground: settings.playground,
    toolContext: { ...vars },
    version: context.version,
    ...(settings.authToken === undefined ? {} : { authToken: settings.authToken }),
    ...(settings.cors === undefined ? {} : { cors: settings.cors }),
    ...(settings.quiet ? {} : { accessLog: accessLog.log }),
    logError: (message, error) => void io.stderr.write(`agentlib serve: ${message}: ${describeFailure(error)}\n`),
    logNotice: (line) => void io.stderr.write(`agentlib serve: ${line}\n`),
  });
  let server: RunningServer;
  try {
    server = await listen(served, { port: settings.port, host: settings.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`Port ${settings.port} on ${settings.host} is in use; pick another with --port (0: any free port).`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`Cannot bind --host ${settings.host}: no such local address.`);
    throw error;
  }
  io.stdout.write(banner(server.url, served.info, settings, traceUrl));
  io.stderr.write('Press Ctrl+C to stop.\n');
  const why = await stopRequested(context.signal);
  io.stderr.write(`${why}: shutting down; in-flight runs get ${settings.graceMs / 1000} s\n`);
  const drained = await server.close(settings.graceMs);
  accessLog.flush();
  io.stderr.write(`stopped (${drained.finished} run(s) finished, ${drained.aborted} aborted)\n`);
  return why === 'SIGINT' ? ExitCode.INTERRUPTED : ExitCode.OK;
}
