import { hasMarker } from './agentlib-error.js';
import { MCPError } from './mcp-error.js';

const marker = Symbol.for('agentlib.error.MCPConnectionError');

/** Connecting to (or talking to) an MCP server failed. */
export class MCPConnectionError extends MCPError {
  private readonly [marker] = true;
  override readonly name: string = 'MCPConnectionError';

  /** True when `error` is an MCPConnectionError (works across package copies). */
  static override isInstance(error: unknown): error is MCPConnectionError {
    return hasMarker(error, marker);
  }
}
