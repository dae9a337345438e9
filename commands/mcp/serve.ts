import { Agent } from '../../lib/agent/agent.js';
import { buildAgentConfig } from '../../lib/config/load-agent.js';
import { loadAgentConfig } from '../../lib/config/parse-agent-config.js';
import { agentToolName } from '../../lib/mcp/map-tool.js';
import { MCPServer } from '../../lib/mcp/mcp-server.js';
import { UsageError } from '../../cli/usage-error.js';
import { ConfigurationError } from '../../lib/core/errors/configuration-error.js';
import { ScriptedProvider } from '../../lib/providers/scripted.js';
import { ExitCode } from '../../cli/exit-codes.js';
import type { CommandArguments, CommandContext } from '../command-module.js';
import { approvalHandler } from '../run/approvals.js';
import { cliMcpConnections } from '../run/mcp-connections.js';
import { parseVars } from '../run/parse-vars.js';
import { planAgentLoad } from '../run/resolve-agent.js';

/**
 * `agentlib mcp serve <agent.yaml>`: serves the agent's tools (and with `--expose-agent` the agent
 * itself) over stdio, or over Streamable HTTP with `--http`, under the file's tool policy.
 * Review-gated calls are denied unless `--approve all` or a policy file answers them (over stdio
 * the terminal is the protocol, so nobody can be asked).
 */
export async function serve(args: CommandArguments, words: readonly string[], context: CommandContext): Promise<number> {
  const { io } = context;
  const [ref, ...extra] = words;
  if (ref === undefined) throw new UsageError('Name the agent file: agentlib mcp serve agent.yaml');
  if (extra.length > 0) throw new UsageError(`mcp serve takes one agent file (got also: ${extra.join(' ')})`);
  const cwd = io.cwd ?? process.cwd();
  const vars = parseVars(args.var as unknown[] | undefined);
  const mcp = cliMcpConnections(io, { trust: args.trustMcp === true, cwd });
  try {
    const plan = planAgentLoad({ ref, cwd, env: io.env, vars, mcpTools: mcp.mcpTools });
    // Serving the tools alone calls no model: no provider (and no API key) is needed.
    if (args.exposeAgent !== true) plan.options.provider = noModel();
    const agentConfig = await buildAgentConfig(await loadAgentConfig(plan.file, plan.options), plan.options, plan.file);
    const mode = typeof args.approve === 'string' && args.approve !== '' ? args.approve : 'none';
    const approve = await approvalHandler(mode, io);
    const policy = agentConfig.toolConfig?.policy ?? agentConfig.toolPolicy;
    const approvalTimeout = agentConfig.toolConfig?.approvalTimeout ?? agentConfig.approvalTimeout;
    const name = agentConfig.name ?? 'agent';
    const server = new MCPServer({
      name,
      tools: agentConfig.tools ?? [],
      ...(policy === undefined ? {} : { policy }),
      approve,
      ...(approvalTimeout === undefined ? {} : { approvalTimeout }),
      context: { ...vars },
      ...(args.exposeAgent === true ? { agent: { create: () => new Agent(agentConfig), name: agentToolName(name, 'ask'), description: `Ask the ${name} agent: it answers with its own model and tools.` } } : {}),
    });
    if (args.http !== true) {
      const { closed, close } = await server.serveStdio({ ...(io.stdin === undefined ? {} : { stdin: io.stdin }), stdout: io.stdout });
      const aborted = new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
      await Promise.race([closed, aborted]);
      await close();
      return context.signal.aborted ? ExitCode.INTERRUPTED : ExitCode.OK;
    }
    const origins = Array.isArray(args.allowOrigin) ? args.allowOrigin.map(String) : undefined;
    const running = await server.listen({
      host: typeof args.host === 'string' ? args.host : '127.0.0.1',
      port: typeof args.port === 'number' ? args.port : 8765,
      ...(typeof args.authToken === 'string' ? { authToken: args.authToken } : {}),
      ...(origins === undefined ? {} : { allowedOrigins: origins }),
    });
    io.stdout.write(`MCP server "${name}" on ${running.url} (${server.tools.size} tools: ${[...server.tools.keys()].join(', ')})\n`);
    io.stderr.write('Press Ctrl+C to stop.\n');
    await new Promise<void>((resolve) => {
      if (context.signal.aborted) resolve();
      else context.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await running.close();
    return ExitCode.INTERRUPTED;
  } finally {
    await mcp.close();
  }
}

/** The provider of an agent whose tools are served without the agent: never called. */
function noModel(): ScriptedProvider {
  return new ScriptedProvider({
    name: 'none',
    respond: () => {
      throw new ConfigurationError('agentlib mcp serve without --expose-agent calls no model');
    },
  });
}
