import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Agent } from '../agent/agent.js';
import type { ApprovalHandler } from '../agent/types.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { ToolPolicy } from '../safety/tool-policy.js';
import { checkToolName } from '../tools/check-definition.js';
import { tool } from '../tools/tool.js';
import type { Tool, ToolProgress } from '../tools/types.js';
import { loadServerSdk, loadStdioServerSdk, type ServerSdk } from './load-sdk.js';
import { listenMcpHttp, type MCPHttpOptions, type RunningMCPHttpServer } from './mcp-http.js';
import { serveToolCall, type ServeCallRules } from './serve-call.js';

/** The agent exposed as one MCP tool: each call runs a fresh agent on the `input` text. */
export interface ExposedAgent {
  /** Makes the agent of one call (a fresh conversation each time). */
  create: () => Agent | Promise<Agent>;
  /** Tool name. Default `ask_<agent name>` (made an identifier). */
  name?: string;
  /** Tool description. Default: the agent's description, else "Ask the agent …". */
  description?: string;
}

/** The streams `serveStdio` talks over (Node readable and writable streams; default this process's stdin and stdout). */
export interface StdioStreams {
  stdin?: object;
  stdout?: object;
}

/** Options of an MCPServer. */
export interface MCPServerOptions {
  /** Server name sent in the handshake. Default `agentlib`. */
  name?: string;
  /** Server version sent in the handshake. Default `0.1.0`. */
  version?: string;
  /** The tools served. */
  tools?: readonly Tool[];
  /** The agent, served as one more tool. */
  agent?: ExposedAgent;
  /** Allow / review / deny rules applied to every call (as in the agent). */
  policy?: ToolPolicy;
  /** Answers review-gated calls (a `review` decision or a `requiresApproval` tool); without one they are denied. */
  approve?: ApprovalHandler;
  /** Seconds to wait for an approval (a timeout denies). Default 60; 0 waits indefinitely. */
  approvalTimeout?: number;
  /** The `context` the tools receive. */
  context?: unknown;
}

/**
 * Serves agentlib tools (and optionally an agent, as one tool) to MCP clients, over stdio
 * (`serveStdio()`) or Streamable HTTP (`listen()`). Calls go through the same checks as an agent's
 * own calls: argument validation, the tool policy, and approval for review-gated tools (denied
 * unless an approver is configured). Each HTTP session gets its own protocol server and transport.
 *
 * @example
 * const server = new MCPServer({ tools: [getWeather], policy: new ToolPolicy({ allow: ['get_*'] }) });
 * const running = await server.listen({ port: 8765 }); // http://127.0.0.1:8765/mcp
 */
export class MCPServer {
  readonly #options: MCPServerOptions;
  readonly #tools = new Map<string, Tool>();
  readonly #rules: ServeCallRules;

  constructor(options: MCPServerOptions) {
    this.#options = options;
    for (const t of options.tools ?? []) {
      if (this.#tools.has(t.name)) throw new ConfigurationError(`Two tools are named "${t.name}"`);
      this.#tools.set(t.name, t);
    }
    if (options.agent !== undefined) {
      const agentTool = exposeAgent(options.agent);
      if (this.#tools.has(agentTool.name)) throw new ConfigurationError(`The agent tool "${agentTool.name}" has the name of a served tool; set agent.name`);
      this.#tools.set(agentTool.name, agentTool);
    }
    if (this.#tools.size === 0) throw new ConfigurationError('An MCPServer needs at least one tool (or an agent to expose)');
    const timeout = options.approvalTimeout;
    if (timeout !== undefined && (!Number.isFinite(timeout) || timeout < 0) && timeout !== Infinity) throw new ConfigurationError(`approvalTimeout must be seconds ≥ 0, got ${timeout}`);
    this.#rules = {
      ...(options.policy === undefined ? {} : { policy: options.policy }),
      ...(options.approve === undefined ? {} : { approve: options.approve }),
      approvalTimeoutMs: timeout === undefined ? 60_000 : timeout === Infinity ? 0 : timeout * 1000,
      context: options.context,
    };
  }

  /** The served tools (the agent tool included), by name. */
  get tools(): ReadonlyMap<string, Tool> {
    return this.#tools;
  }

  /** A new protocol server with the tool handlers (one per session). */
  async createSession(): Promise<Server> {
    const sdk = await loadServerSdk();
    return this.#session(sdk);
  }

  #session(sdk: ServerSdk): Server {
    const server = new sdk.server.Server({ name: this.#options.name ?? 'agentlib', version: this.#options.version ?? '0.1.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(sdk.types.ListToolsRequestSchema, () => ({
      tools: [...this.#tools.values()].map((t) => ({ name: t.name, description: t.description, inputSchema: { ...t.parameters, type: 'object' as const } })),
    }));
    server.setRequestHandler(sdk.types.CallToolRequestSchema, async (request, extra) => {
      const target = this.#tools.get(request.params.name);
      if (target === undefined) {
        throw new sdk.types.McpError(sdk.types.ErrorCode.InvalidParams, `Unknown tool "${request.params.name}" (tools: ${[...this.#tools.keys()].join(', ')})`);
      }
      // A client that sent a progress token gets the tool's ctx.progress reports as notifications/progress.
      const token = request.params._meta?.progressToken;
      let answered = false;
      const progress =
        token === undefined
          ? undefined
          : (update: ToolProgress): void => {
              if (answered || extra.signal.aborted) return;
              void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...update } }).catch(() => undefined);
            };
      const outcome = await serveToolCall(target, request.params.arguments, this.#rules, extra.signal, progress).finally(() => (answered = true));
      return { content: [{ type: 'text' as const, text: outcome.text }], ...(outcome.isError ? { isError: true } : {}) };
    });
    return server;
  }

  /** Connects a new session to `transport` (stdio, or a transport of your own). */
  async connect(transport: Transport): Promise<Server> {
    const server = await this.createSession();
    await server.connect(transport);
    return server;
  }

  /** Serves over this process's stdin/stdout until stdin ends (or the returned close() is called). */
  async serveStdio(streams: StdioStreams = {}): Promise<{ closed: Promise<void>; close: () => Promise<void> }> {
    const { StdioServerTransport } = await loadStdioServerSdk();
    const stdin = (streams.stdin ?? process.stdin) as typeof process.stdin;
    const transport = new StdioServerTransport(stdin, (streams.stdout ?? process.stdout) as typeof process.stdout);
    const server = await this.connect(transport);
    const closed = new Promise<void>((resolve) => {
      server.onclose = resolve;
      stdin.once('end', () => void server.close());
    });
    return { closed, close: () => server.close() };
  }

  /** Serves over Streamable HTTP (loopback by default; see MCPHttpOptions for the security rules). */
  listen(options: MCPHttpOptions = {}): Promise<RunningMCPHttpServer> {
    return listenMcpHttp(async () => this.#session(await loadServerSdk()), options);
  }
}

function exposeAgent(exposed: ExposedAgent): Tool {
  let name = exposed.name;
  if (name === undefined) name = 'ask_agent';
  checkToolName(name);
  return tool({
    name,
    description: exposed.description ?? 'Ask the agent: it answers the input with its own model and tools.',
    parameters: { type: 'object', properties: { input: { type: 'string', description: 'What to ask the agent' } }, required: ['input'] },
    execute: async (args: Record<string, unknown>, ctx) => {
      const agent = await exposed.create();
      const result = await agent.run(String(args['input']), { signal: ctx.signal });
      if (result.error !== undefined) throw new Error(`the agent run ended with ${result.status}: ${result.error.message}`);
      return result.content;
    },
  });
}
