import { MCPConnectionError } from '../core/errors/mcp-connection-error.js';
import { MCPError } from '../core/errors/mcp-error.js';
import { MCPToolError } from '../core/errors/mcp-tool-error.js';

/** JSON-RPC error codes the SDK uses for a closed connection and a request timeout. */
export const CONNECTION_CLOSED = -32000;
export const REQUEST_TIMEOUT = -32001;

/** The JSON-RPC code of an SDK McpError, or undefined. */
export function rpcCode(error: unknown): number | undefined {
  const e = error as { name?: unknown; code?: unknown } | null;
  return e !== null && typeof e === 'object' && e.name === 'McpError' && typeof e.code === 'number' ? e.code : undefined;
}

/** The HTTP status of an SDK StreamableHTTPError / SseError, or undefined. */
export function httpStatus(error: unknown): number | undefined {
  if (!(error instanceof Error) || !/^(Streamable HTTP|SSE) error:/.test(error.message)) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' && code >= 100 && code < 600 ? code : undefined;
}

/** What a failed request turns into; `dropped` describes a lost connection (stderr tail, exit status), when there was one. */
export interface FailureContext {
  server: string;
  what: string;
  toolName?: string;
  timeoutMs: number;
  dropped: () => string | undefined;
}

/**
 * Maps an SDK failure to agentlib's MCP errors: a lost connection or an HTTP status →
 * MCPConnectionError; the server's JSON-RPC error for a tool call → MCPToolError; a timeout and
 * anything else → MCPError. agentlib errors pass through.
 */
export function mapFailure(error: unknown, ctx: FailureContext): Error {
  if (MCPError.isInstance(error)) return error;
  const code = rpcCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const dropped = ctx.dropped();
  if (code === CONNECTION_CLOSED || dropped !== undefined) {
    return new MCPConnectionError(`MCP server "${ctx.server}" closed the connection during ${ctx.what}${dropped === undefined ? '' : ` (${dropped})`}`, { server: ctx.server, cause: error });
  }
  const status = httpStatus(error);
  if (status !== undefined) return new MCPConnectionError(`MCP server "${ctx.server}" answered ${ctx.what} with HTTP ${status}: ${message}`, { server: ctx.server, cause: error });
  if (code === REQUEST_TIMEOUT) return new MCPError(`MCP server "${ctx.server}" did not answer ${ctx.what} within ${ctx.timeoutMs} ms`, { server: ctx.server, cause: error });
  if (code !== undefined && ctx.toolName !== undefined) {
    return new MCPToolError(`MCP tool "${ctx.toolName}" of server "${ctx.server}" failed: ${message}`, { toolName: ctx.toolName, server: ctx.server, cause: error });
  }
  if (error instanceof TypeError && /fetch failed|ECONNREFUSED|ECONNRESET/.test(`${message} ${String((error as { cause?: unknown }).cause)}`)) {
    return new MCPConnectionError(`Cannot reach MCP server "${ctx.server}" for ${ctx.what}: ${message}`, { server: ctx.server, cause: error });
  }
  return new MCPError(`MCP server "${ctx.server}": ${ctx.what} failed: ${message}`, { server: ctx.server, cause: error });
}
