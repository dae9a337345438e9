import { MCPError } from '../core/errors/mcp-error.js';
import type { Tool } from '../tools/types.js';
import { MCPClient, type MCPCallOptions, type MCPClientOptions, type ToolsChangedListener } from './mcp-client.js';
import type { MCPCallResult } from './map-result.js';
import type { SkippedTool } from './map-tool.js';
import { serverLabel, type MCPServerConfig } from './server-config.js';

/** One server of a MultiMCPClient: where it is, plus its client options (prefix, tool filter, timeouts). */
export type MCPServerEntry = MCPServerConfig & Omit<MCPClientOptions, 'sleep' | 'fetch'> & { name: string };

/** A server that could not be used, and why. */
export interface FailedServer {
  server: string;
  error: Error;
}

/** Options shared by every server of a MultiMCPClient. */
export type MultiMCPClientOptions = Pick<MCPClientOptions, 'connectTimeoutMs' | 'callTimeoutMs' | 'reconnect' | 'clientInfo' | 'fetch' | 'sleep'>;

const CLIENT_KEYS = ['prefix', 'tools', 'connectTimeoutMs', 'callTimeoutMs', 'reconnect', 'clientInfo'] as const;

/**
 * Several MCP servers at once. Each server's tools are prefixed with its name (or its `prefix`)
 * so two servers' `search` tools do not collide. Servers connect in parallel; one that fails is
 * reported in `failed` and its tools are left out, the others work.
 *
 * @example
 * await using servers = new MultiMCPClient([
 *   { name: 'files', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] },
 *   { name: 'search', url: 'https://mcp.example.com/mcp', headers: { Authorization: `Bearer ${token}` } },
 * ]);
 * const agent = new Agent({ provider, tools: await servers.tools() });
 * for (const { server, error } of servers.failed) console.warn(server, error.message);
 */
export class MultiMCPClient {
  readonly #clients = new Map<string, MCPClient>();
  #failed: FailedServer[] = [];
  #skipped: SkippedTool[] = [];
  /** Each server's tools as last listed (by `tools()` or after its `tools/list_changed`). */
  readonly #current = new Map<string, Tool[]>();
  readonly #listeners = new Set<ToolsChangedListener>();

  constructor(servers: readonly MCPServerEntry[], options: MultiMCPClientOptions = {}) {
    for (const entry of servers) {
      const name = entry.name;
      if (typeof name !== 'string' || name === '') throw new MCPError(`Every server of a MultiMCPClient needs a name (got ${serverLabel(entry)} without one)`);
      if (this.#clients.has(name)) throw new MCPError(`Two MCP servers are named "${name}": names must differ (they prefix the tools)`, { server: name });
      const clientOptions: MCPClientOptions = { ...options, prefix: name };
      const picked = entry as unknown as Record<string, unknown>;
      const config: Record<string, unknown> = { ...picked };
      for (const key of CLIENT_KEYS) {
        if (picked[key] !== undefined) (clientOptions as Record<string, unknown>)[key] = picked[key];
        delete config[key];
      }
      const client = new MCPClient(config as unknown as MCPServerConfig, clientOptions);
      client.onToolsChanged((tools) => this.#serverChanged(name, tools));
      this.#clients.set(name, client);
    }
  }

  /** The clients, by server name. */
  get clients(): ReadonlyMap<string, MCPClient> {
    return this.#clients;
  }

  /** Servers that failed on the last `connect()` / `tools()`, with their errors. */
  get failed(): readonly FailedServer[] {
    return this.#failed;
  }

  /** Tools left out on the last `tools()` (schema unusable, name taken). */
  get skippedTools(): readonly SkippedTool[] {
    return this.#skipped;
  }

  /** Connects every server in parallel; the ones that fail are in `failed` (this never throws for them). */
  async connect(): Promise<void> {
    const outcomes = await Promise.allSettled([...this.#clients.values()].map((client) => client.connect()));
    this.#failed = failures(this.#clients, outcomes);
  }

  /** The tools of every server that answers, prefixed; failing servers are left out and listed in `failed`. */
  async tools(): Promise<Tool[]> {
    const clients = [...this.#clients.values()];
    const outcomes = await Promise.allSettled(clients.map((client) => client.listTools()));
    this.#failed = failures(this.#clients, outcomes);
    const taken = new Set<string>();
    const tools: Tool[] = [];
    const skipped: SkippedTool[] = [];
    this.#current.clear();
    for (const [i, client] of clients.entries()) {
      if (outcomes[i]?.status !== 'fulfilled') continue;
      const own = await client.tools(taken);
      this.#current.set(client.name, own);
      tools.push(...own);
      skipped.push(...client.skippedTools);
    }
    this.#skipped = skipped;
    return tools;
  }

  /**
   * Registers a listener for tool-list changes of any server: it gets the tools of every server
   * (as `tools()` would list them) after one announced `notifications/tools/list_changed`. Returns
   * the function that removes it. See `syncAgentTools`.
   */
  onToolsChanged(listener: ToolsChangedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #serverChanged(server: string, tools: readonly Tool[]): void {
    if (!this.#current.has(server)) return; // a server whose tools were never listed (failed, or tools() not called yet)
    this.#current.set(server, [...tools]);
    const taken = new Set<string>();
    const all: Tool[] = [];
    for (const name of this.#clients.keys()) {
      for (const t of this.#current.get(name) ?? []) {
        if (taken.has(t.name)) continue; // two prefixes that collide: the first server keeps the name
        taken.add(t.name);
        all.push(t);
      }
    }
    for (const listener of this.#listeners) listener(all);
  }

  /** Calls `tool` on the server named `server` (remote tool name, no prefix). */
  callTool(server: string, tool: string, args: Record<string, unknown> = {}, options: MCPCallOptions = {}): Promise<MCPCallResult> {
    const client = this.#clients.get(server);
    if (client === undefined) return Promise.reject(new MCPError(`No MCP server named "${server}" (servers: ${[...this.#clients.keys()].join(', ') || 'none'})`, { server }));
    return client.callTool(tool, args, options);
  }

  /** Closes every connection (failures while closing are ignored: each client still ends its process). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#clients.values()].map((client) => client.close()));
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

function failures(clients: ReadonlyMap<string, MCPClient>, outcomes: readonly PromiseSettledResult<unknown>[]): FailedServer[] {
  const names = [...clients.keys()];
  const failed: FailedServer[] = [];
  outcomes.forEach((outcome, i) => {
    if (outcome.status === 'rejected') failed.push({ server: names[i] ?? '?', error: outcome.reason instanceof Error ? outcome.reason : new Error(String(outcome.reason)) });
  });
  return failed;
}
