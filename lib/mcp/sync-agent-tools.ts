import type { Tool } from '../tools/types.js';
import type { ToolsChangedListener } from './mcp-client.js';

/** The tool-changing part of an Agent (or of a tool list: see `toolListHolder`). */
export interface ToolHolder {
  readonly tools: readonly Tool[];
  addTool(tool: Tool): void;
  replaceTool(tool: Tool): void;
  removeTool(name: string): void;
}

/** What announces tool-list changes: an MCPClient or a MultiMCPClient. */
export interface ToolsChangeSource {
  onToolsChanged(listener: ToolsChangedListener): () => void;
}

/** The agentlib tool names a tool-list change added and removed (replaced ones are in neither). */
export interface ToolsChange {
  added: string[];
  removed: string[];
}

/**
 * Keeps an agent's tools in step with an MCP server (or several, through a MultiMCPClient): after
 * `notifications/tools/list_changed`, new tools are added, changed ones replaced and withdrawn ones
 * removed (the agent's other tools are not touched; an agent keeps its last tool, see
 * `Agent.removeTool`). `current` is the server's tools the agent has now. Returns the function that
 * stops it.
 *
 * @example
 * const tools = await client.tools();
 * const agent = new Agent({ provider, tools });
 * const stop = syncAgentTools(agent, client, tools);
 */
export function syncAgentTools(agent: ToolHolder, source: ToolsChangeSource, current: readonly Tool[], onChange?: (change: ToolsChange) => void): () => void {
  let names = new Set(current.map((t) => t.name));
  return source.onToolsChanged((tools) => {
    const next = new Set(tools.map((t) => t.name));
    const present = new Set(agent.tools.map((t) => t.name));
    const change: ToolsChange = { added: [], removed: [] };
    for (const t of tools) {
      if (present.has(t.name)) {
        agent.replaceTool(t);
      } else {
        agent.addTool(t);
        change.added.push(t.name);
      }
    }
    for (const name of names) {
      if (next.has(name) || !present.has(name)) continue;
      try {
        agent.removeTool(name);
        change.removed.push(name);
      } catch {
        // the agent's last tool stays (a call to it gets the server's "unknown tool" error)
      }
    }
    names = next;
    if (change.added.length > 0 || change.removed.length > 0) onChange?.(change);
  });
}

/**
 * A ToolHolder over a tool array that is changed in place: `agentlib serve` builds a fresh Agent
 * per request from one AgentConfig, so keeping its `tools` array in step serves the next requests
 * with the new tools.
 */
export function toolListHolder(list: Tool[]): ToolHolder {
  const at = (name: string): number => list.findIndex((t) => t.name === name);
  return {
    get tools() {
      return list;
    },
    addTool: (tool) => void list.push(tool),
    replaceTool: (tool) => {
      const i = at(tool.name);
      if (i === -1) list.push(tool);
      else list[i] = tool;
    },
    removeTool: (name) => {
      const i = at(name);
      if (i !== -1) list.splice(i, 1);
    },
  };
}
