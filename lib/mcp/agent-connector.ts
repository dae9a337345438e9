import type { McpServerSettings } from '../config/types.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { Tool } from '../tools/types.js';
import { serverEntries, spawnDescription } from './configured-servers.js';
import { MultiMCPClient, type FailedServer, type MCPServerEntry, type MultiMCPClientOptions } from './multi-mcp-client.js';
import { syncAgentTools, type ToolHolder, type ToolsChange } from './sync-agent-tools.js';

/** A stdio server about to be spawned, with what a person should see first. */
export interface PendingSpawn {
  entry: MCPServerEntry;
  /** The full command line (and directory, environment names). */
  description: string;
}

/** Options of `agentMcpConnector`. */
export interface AgentMcpConnectorOptions {
  /**
   * Decides whether the file's stdio servers may be spawned, before any is: true to go on, false to
   * refuse (loading fails with a ConfigurationError listing the commands). Not called when the file
   * has only HTTP servers.
   */
  authorize: (spawns: readonly PendingSpawn[], file: { source: string }) => boolean | Promise<boolean>;
  /** Told about servers that could not be reached (their tools are left out; the others work). */
  onFailed?: (failed: readonly FailedServer[]) => void;
  /** Timeouts, reconnection. */
  clientOptions?: MultiMCPClientOptions;
}

/** The `mcpTools` option of loadAgent, and the connections it opened. */
export interface AgentMcpConnector {
  /** Pass as `LoadAgentOptions.mcpTools`. */
  mcpTools: (servers: readonly McpServerSettings[], file: { source: string; baseDir: string }) => Promise<readonly Tool[]>;
  /** The clients opened so far. */
  readonly clients: readonly MultiMCPClient[];
  /**
   * Keeps `holder` (the Agent built from a file, or an AgentConfig's tool list) in step with the
   * servers whose tools it has: a server's `tools/list_changed` adds, replaces and removes its
   * tools there. `onChange` is told the names added and removed. Returns the function that stops it
   * (closing the connections stops it too).
   */
  follow(holder: ToolHolder, onChange?: (change: ToolsChange) => void): () => void;
  /** Closes every connection (ends the stdio servers). */
  close(): Promise<void>;
}

/**
 * Connects the MCP servers of agent files for loadAgent: asks `authorize` before spawning any stdio
 * server (showing its full command), connects every server, reports the ones that fail and leaves
 * their tools out. The caller closes the connections when the agent is done.
 */
export function agentMcpConnector(options: AgentMcpConnectorOptions): AgentMcpConnector {
  const clients: MultiMCPClient[] = [];
  const owners = new WeakMap<Tool, MultiMCPClient>();
  return {
    clients,
    follow: (holder, onChange) => {
      const bound = new Map<MultiMCPClient, Tool[]>();
      for (const t of holder.tools) {
        const owner = owners.get(t);
        if (owner !== undefined) bound.set(owner, [...(bound.get(owner) ?? []), t]);
      }
      const stops = [...bound].map(([client, tools]) => syncAgentTools(holder, client, tools, onChange));
      return () => {
        for (const stop of stops) stop();
      };
    },
    mcpTools: async (servers, file) => {
      const entries = serverEntries(servers, file.baseDir);
      const spawns: PendingSpawn[] = [];
      for (const entry of entries) {
        const description = spawnDescription(entry);
        if (description !== undefined) spawns.push({ entry, description });
      }
      if (spawns.length > 0 && !(await options.authorize(spawns, file))) {
        const list = spawns.map((s) => `  ${s.entry.name}: ${s.description}`).join('\n');
        throw new ConfigurationError(`${file.source} starts MCP servers that were not approved:\n${list}\nPass --trust-mcp to run them (or approve them once in agentlib chat).`, { key: 'mcp' });
      }
      const client = new MultiMCPClient(entries, options.clientOptions ?? {});
      clients.push(client);
      const tools = await client.tools();
      for (const t of tools) owners.set(t, client);
      client.onToolsChanged((next) => {
        for (const t of next) owners.set(t, client);
      });
      if (client.failed.length > 0) options.onFailed?.(client.failed);
      return tools;
    },
    close: async () => {
      await Promise.allSettled(clients.map((client) => client.close()));
    },
  };
}
