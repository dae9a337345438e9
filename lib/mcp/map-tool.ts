import { ToolValidationError } from '../core/errors/tool-validation-error.js';
import { MAX_DESCRIPTION_LENGTH, MAX_TOOL_NAME_LENGTH, MIN_DESCRIPTION_LENGTH } from '../tools/check-definition.js';
import { tool } from '../tools/tool.js';
import type { Tool, ToolProgress } from '../tools/types.js';

/** A tool as an MCP server lists it. */
export interface MCPToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** A tool of a server that could not become an agentlib tool, and why. */
export interface SkippedTool {
  server: string;
  tool: string;
  reason: string;
}

/**
 * The agentlib name of an MCP tool: `prefix_name` with every character that is not a letter, digit
 * or `_` replaced by `_` (`get-tiny-image` → `everything_get_tiny_image`), `_` in front of a leading
 * digit, cut to 64 characters.
 */
export function agentToolName(remote: string, prefix?: string): string {
  const joined = prefix === undefined || prefix === '' ? remote : `${prefix}_${remote}`;
  let name = joined.replace(/[^A-Za-z0-9_]/g, '_');
  if (!/^[A-Za-z_]/.test(name)) name = `_${name}`;
  return name.slice(0, MAX_TOOL_NAME_LENGTH);
}

/** The description the model sees: the server's, completed when shorter than 10 characters, cut at 1024. */
export function agentToolDescription(info: MCPToolInfo, server: string): string {
  let text = (info.description ?? info.title ?? '').trim();
  if (text.length < MIN_DESCRIPTION_LENGTH) text = `${text}${text === '' ? '' : ' '}(tool "${info.name}" of MCP server "${server}")`.trim();
  if (text.length > MAX_DESCRIPTION_LENGTH) text = `${text.slice(0, MAX_DESCRIPTION_LENGTH - 1)}…`;
  return text;
}

/** Calls the remote tool and returns the text the model gets (throws MCPToolError on an error result); the server's progress notifications go to `progress`. */
export type RemoteCall = (remoteName: string, args: Record<string, unknown>, signal: AbortSignal, progress?: (update: ToolProgress) => void) => Promise<string>;

/**
 * An agentlib tool that calls an MCP tool. Its parameters are the server's input schema,
 * normalised like every tool's (the Gemini provider sanitises it further when it sends it). Throws
 * ToolValidationError when the schema is not an object schema agentlib can use.
 */
export function toAgentTool(info: MCPToolInfo, options: { server: string; prefix?: string; call: RemoteCall }): Tool {
  const name = agentToolName(info.name, options.prefix);
  const remote = info.name;
  const call = options.call;
  return tool({
    name,
    description: agentToolDescription(info, options.server),
    parameters: info.inputSchema,
    execute: (args: Record<string, unknown>, ctx) => call(remote, args, ctx.signal, ctx.progress),
  });
}

/** Builds the agentlib tools of one server, leaving out (and reporting) tools whose schema is unusable or whose name collides. */
export function toAgentTools(infos: readonly MCPToolInfo[], options: { server: string; prefix?: string; call: RemoteCall; taken?: Set<string> }): { tools: Tool[]; skipped: SkippedTool[] } {
  const tools: Tool[] = [];
  const skipped: SkippedTool[] = [];
  const taken = options.taken ?? new Set<string>();
  for (const info of infos) {
    const name = agentToolName(info.name, options.prefix);
    if (taken.has(name)) {
      skipped.push({ server: options.server, tool: info.name, reason: `its agentlib name "${name}" is already taken (set a different prefix)` });
      continue;
    }
    try {
      tools.push(toAgentTool(info, options));
      taken.add(name);
    } catch (error) {
      if (!ToolValidationError.isInstance(error)) throw error;
      skipped.push({ server: options.server, tool: info.name, reason: error.message });
    }
  }
  return { tools, skipped };
}
