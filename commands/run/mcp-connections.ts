import type { McpServerSettings } from '../../lib/config/types.js';
import type { Tool } from '../../lib/tools/types.js';
import type { AgentMcpConnector, PendingSpawn } from '../../lib/mcp/agent-connector.js';
import type { ToolHolder, ToolsChange } from '../../lib/mcp/sync-agent-tools.js';
import type { CliIO } from '../../cli/output.js';

/** How the CLI decides to spawn the stdio MCP servers of an agent file. */
export interface McpSpawnPolicy {
  /** `--trust-mcp`: spawn without asking. */
  trust: boolean;
  /** The project directory (`.agentlib/mcp-trust.json` remembers approvals there). */
  cwd: string;
  /** Asks a person (chat); without it, an unapproved command is refused. Resolves true to spawn. */
  ask?: (spawns: readonly PendingSpawn[]) => Promise<boolean>;
  /** Told when a server changed the tools of a followed agent (run and serve print it on stderr; the chat's screen is Ink's). */
  onToolsChanged?: (change: ToolsChange) => void;
}

/** The MCP connections of one CLI command: the `mcpTools` hook for loadAgent, and `close()` for the end of the command. */
export interface CliMcpConnections {
  mcpTools: (servers: readonly McpServerSettings[], file: { source: string; baseDir: string }) => Promise<readonly Tool[]>;
  /**
   * Keeps an agent (or an AgentConfig's tool list) built with `mcpTools` in step when a server
   * changes its tools (`notifications/tools/list_changed`). Nothing to do for a file without MCP servers.
   */
  follow: (holder: ToolHolder) => void;
  close(): Promise<void>;
}

/**
 * Connects agent files' MCP servers for run / chat / serve. A stdio server is spawned only when
 * `--trust-mcp` was given, or its exact command was approved in this project before, or `ask`
 * (chat) gets a yes — which is then remembered. Servers that fail are reported on stderr and their
 * tools left out. agentlib/mcp is imported only when a file lists MCP servers.
 */
export function cliMcpConnections(io: CliIO, policy: McpSpawnPolicy): CliMcpConnections {
  let connector: AgentMcpConnector | undefined;
  return {
    mcpTools: async (servers, file) => {
      const [{ agentMcpConnector }, { McpTrustStore }] = await Promise.all([import('../../lib/mcp/agent-connector.js'), import('../../lib/mcp/configured-servers.js')]);
      const store = new McpTrustStore(policy.cwd);
      connector ??= agentMcpConnector({
        authorize: async (spawns) => {
          if (policy.trust) return true;
          if (spawns.every((s) => store.isTrusted(s.entry))) return true;
          if (policy.ask === undefined) return false;
          const yes = await policy.ask(spawns.filter((s) => !store.isTrusted(s.entry)));
          if (yes) for (const s of spawns) store.trust(s.entry);
          return yes;
        },
        onFailed: (failed) => {
          for (const { server, error } of failed) io.stderr.write(`warning: MCP server "${server}" is unavailable, its tools are left out: ${error.message}\n`);
        },
      });
      return connector.mcpTools(servers, file);
    },
    follow: (holder) => {
      connector?.follow(holder, policy.onToolsChanged);
    },
    close: async () => {
      await connector?.close();
    },
  };
}

/** The stderr line of a tool-list change: `MCP tools changed: added fx_added; removed fx_old`. */
export function toolsChangeLine(change: ToolsChange): string {
  const parts = [change.added.length > 0 ? `added ${change.added.join(', ')}` : '', change.removed.length > 0 ? `removed ${change.removed.join(', ')}` : ''].filter((p) => p !== '');
  return `MCP tools changed: ${parts.join('; ')}\n`;
}
