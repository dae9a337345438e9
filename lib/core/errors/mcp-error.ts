import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.MCPError');

/** An MCP (Model Context Protocol) failure. */
export class MCPError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'MCPError';
  /** The server involved, when known. */
  readonly server: string | undefined;

  constructor(message: string, fields: { server?: string } & AgentlibErrorOptions = {}) {
    super(message, fields);
    this.server = fields.server;
  }

  /** True when `error` is a MCPError (works across package copies). */
  static override isInstance(error: unknown): error is MCPError {
    return hasMarker(error, marker);
  }
}
