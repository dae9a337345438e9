import type { ApprovalHandler } from '../lib/agent/types.js';
import { ExitCode } from '../cli/exit-codes.js';
import { UsageError } from '../cli/usage-error.js';
import type { CommandArguments, CommandContext } from './command-module.js';
import { chatTraces, savedTracesMessage } from './chat/chat-traces.js';
import { chatSessions } from './chat/chat-sessions.js';
import { modelSwitcher, sharedProviderAgent } from './chat/switch-model.js';
import { notInteractiveMessage, whyNotInteractive } from './chat/terminal-check.js';
import { importTui } from './import-tui.js';
import type * as RunChatModule from '../tui/chat/run-chat.js';
import { approvalHandler } from './run/approvals.js';
import { agentRequestFrom, optionalString } from './run/agent-request.js';
import { parseVars } from './run/parse-vars.js';
import { resolveAgent, type AgentRequest } from './run/resolve-agent.js';
import { cliMcpConnections, type CliMcpConnections } from './run/mcp-connections.js';
import { askMcpSpawn } from './chat/ask-mcp-spawn.js';
import { openTraceStoreFlag, traceStoreUrl } from './run/trace-store-flag.js';

function sessionNotice(agent: { session?: { store: { namespace: string } } | undefined }, id: string): string {
  return `session ${id} (namespace ${agent.session?.store.namespace ?? '?'}): the conversation is saved after each turn; /sessions lists, /session <id> switches, /reset starts a new one.`;
}

/**
 * `agentlib chat <agent>`: an interactive conversation with an agent YAML or template in the
 * terminal (Ink). Refuses without a terminal (exit 2) and points to `agentlib run`. Each turn's
 * trace is saved to the trace store when the turn ends (`--trace-store`, default SQLite
 * `.agentlib/agentlib.db`; `--no-trace-store` or `--no-trace`: none); on exit it says where.
 */
export async function run(args: CommandArguments, context: CommandContext): Promise<number> {
  const { io } = context;
  const ref = String(args.agent);
  const why = whyNotInteractive(io);
  if (why !== undefined) {
    io.stderr.write(notInteractiveMessage(why, ref));
    return ExitCode.USAGE;
  }
  const cwd = io.cwd ?? process.cwd();
  const traceUrl = chatTraceStoreUrl(args);
  const vars = parseVars(args.var as unknown[] | undefined);
  // Every turn is a run on the same cassette: a question asked again (after /reset) replays again.
  const mcp = cliMcpConnections(io, { trust: args.trustMcp === true, cwd, ask: (spawns) => askMcpSpawn(spawns, io) });
  try {
    return await chatWith(args, context, { cwd, vars, mcp, traceUrl });
  } finally {
    await mcp.close();
  }
}

/** The trace store URL of the chat: `--trace-store` (default `sqlite://`); `--no-trace` / `--no-trace-store`: none. */
function chatTraceStoreUrl(args: CommandArguments): string | undefined {
  if (args.trace === false) {
    if (typeof args.traceStore === 'string') throw new UsageError('--no-trace keeps no traces: drop it, or drop --trace-store.');
    return undefined;
  }
  return traceStoreUrl(args.traceStore);
}

async function chatWith(args: CommandArguments, context: CommandContext, setup: { cwd: string; vars: Record<string, string>; mcp: CliMcpConnections; traceUrl: string | undefined }): Promise<number> {
  const { io } = context;
  const { cwd, vars, mcp, traceUrl } = setup;
  if (args.cache === true) throw new UsageError('agentlib chat streams its replies, and streams bypass caches: there is no --cache (use agentlib run --cache or agentlib serve --cache); --no-cache ignores the file\'s cache:.');
  const request: AgentRequest = { ...agentRequestFrom(args, { cwd, env: io.env, vars }, '--timeout'), reuseRecordings: true, mcpTools: mcp.mcpTools, followMcpTools: mcp.follow };
  const sessionId = optionalString(args.session);
  if (sessionId !== undefined) request.sessionId = sessionId;
  const resolved = await resolveAgent(request);
  const approveMode = optionalString(args.approve);
  const approve: ApprovalHandler | undefined = approveMode === undefined || approveMode === 'ask' ? undefined : await approvalHandler(approveMode, io);
  const { runChat } = (await importTui(new URL('../tui/chat/run-chat.js', import.meta.url))) as typeof RunChatModule;
  const agent = resolved.agent;
  // Each turn's trace goes to the trace store when the turn ends, unless --no-trace-store / --no-trace.
  const store = traceUrl === undefined ? undefined : openTraceStoreFlag(traceUrl, cwd);
  try {
    const traces = store === undefined ? undefined : chatTraces(store);
    const code = await runChat(agent, {
      stdin: io.stdin as NodeJS.ReadStream,
      stdout: io.stdout as NodeJS.WriteStream,
      stderr: io.stderr as NodeJS.WriteStream,
      color: context.color,
      agentLabel: agent.name,
      model: agent.model,
      provider: agent.providerName,
      approvalMode: approveMode ?? 'ask',
      ...(approve === undefined ? {} : { approve }),
      context: { ...vars },
      cwd,
      // /model: the same file with another model; with --record / --replay on the same cassette.
      switchModel: modelSwitcher(request, resolved),
      // /session <id> loads the same file on another session (with --record / --replay, on the same cassette, like /model).
      sessions: chatSessions(request, resolved.file, async (next) => (next.record === undefined && next.replay === undefined ? (await resolveAgent(next)).agent : sharedProviderAgent(next, resolved))),
      notices: sessionId === undefined ? [] : [sessionNotice(agent, sessionId)],
      signal: context.signal,
      ...(traces === undefined ? {} : { traces: traces.traces }),
    });
    if (traces !== undefined && traceUrl !== undefined) io.stderr.write(savedTracesMessage(traces.saved, traceUrl));
    return code;
  } finally {
    await store?.close();
  }
}
