import type { Tool } from '../tools/types.js';
import type { MCPClient } from './mcp-client.js';

/** The tool-changing part of an Agent. */
export interface ToolHolder {
  readonly tools: readonly Tool[];
  addTool(tool: Tool): void;
  replaceTool(tool: Tool): void;
  removeTool(name: string): void;
}

/**
 * Keeps an agent's tools in step with an MCP server: after `notifications/tools/list_changed`, new
 * tools are added, changed ones replaced and withdrawn ones removed (the agent's other tools are not
 * touched). `current` is the server's tools the agent has now. Returns the function that stops it.
 *
 * @example
 * const tools = await client.tools();
 * const agent = new Agent({ provider, tools });
 * const stop = syncAgentTools(agent, client, tools);
 */
export function syncAgentTools(agent: ToolHolder, client: MCPClient, current: readonly Tool[]): () => void {
  let names = new Set(current.map((t) => t.name));
  return client.onToolsChanged((tools) => {
    const next = new Set(tools.map((t) => t.name));
    const present = new Set(agent.tools.map((t) => t.name));
    for (const t of tools) {
      if (present.has(t.name)) agent.replaceTool(t);
      else agent.addTool(t);
    }
    for (const name of names) if (!next.has(name) && present.has(name)) agent.removeTool(name);
    names = next;
  });
}
