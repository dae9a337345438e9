import type { Tool } from '../tools/types.js';
import { MultiMCPClient, type FailedServer, type MCPServerEntry, type MultiMCPClientOptions } from './multi-mcp-client.js';

/** The tools of some MCP servers, and the means to close their connections. */
export interface MCPToolSet extends AsyncDisposable {
  /** Every server's tools, prefixed with its name. */
  readonly tools: Tool[];
  /** Servers that could not be reached (their tools are not in `tools`). */
  readonly failed: readonly FailedServer[];
  /** The client, for direct calls. */
  readonly client: MultiMCPClient;
  /** Closes every connection (ends stdio servers). */
  close(): Promise<void>;
}

/** Options of `mcpTools`. */
export interface MCPToolsOptions extends MultiMCPClientOptions {
  /** Throw when any server fails instead of leaving its tools out. Default false. */
  requireAll?: boolean;
}

/**
 * Connects to MCP servers and returns their tools in a scope that closes every connection: use it
 * with `await using` (or call `close()` in a `finally`). The spec's `mcp_tools()` context manager.
 *
 * @example
 * await using mcp = await mcpTools([{ name: 'everything', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] }]);
 * const result = await new Agent({ provider, tools: mcp.tools }).run('Add 2 and 3');
 */
export async function mcpTools(servers: readonly MCPServerEntry[], options: MCPToolsOptions = {}): Promise<MCPToolSet> {
  const { requireAll, ...clientOptions } = options;
  const client = new MultiMCPClient(servers, clientOptions);
  try {
    const tools = await client.tools();
    const first = client.failed[0];
    if (requireAll === true && first !== undefined) throw first.error;
    const close = (): Promise<void> => client.close();
    return { tools, failed: client.failed, client, close, [Symbol.asyncDispose]: close };
  } catch (error) {
    await client.close();
    throw error;
  }
}
