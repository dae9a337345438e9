import { hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';
import { MCPError } from './mcp-error.js';

const marker = Symbol.for('agentlib.error.MCPToolError');

/** An MCP tool call returned an error or failed. */
export class MCPToolError extends MCPError {
  private readonly [marker] = true;
  override readonly name: string = 'MCPToolError';
  /** The remote tool name. */
  readonly toolName: string;

  constructor(message: string, fields: { toolName: string; server?: string } & AgentlibErrorOptions) {
    super(message, fields);
    this.toolName = fields.toolName;
  }

  /** True when `error` is an MCPToolError (works across package copies). */
  static override isInstance(error: unknown): error is MCPToolError {
    return hasMarker(error, marker);
  }
}
