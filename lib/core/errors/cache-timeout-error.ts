import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.CacheTimeoutError');

/**
 * A cache operation did not finish within the cache's operation timeout (a server that accepted
 * the connection and stopped answering). The agent loop treats it as it treats any failing cache:
 * an `error` event with stage `cache`, and a miss.
 */
export class CacheTimeoutError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'CacheTimeoutError';
  /** `get`, `set`, `delete` or `clear`. */
  readonly operation: string;
  /** The timeout that elapsed, in ms. */
  readonly timeoutMs: number;

  constructor(message: string, fields: { operation: string; timeoutMs: number } & AgentlibErrorOptions) {
    super(message, fields);
    this.operation = fields.operation;
    this.timeoutMs = fields.timeoutMs;
  }

  /** True when `error` is a CacheTimeoutError (works across package copies). */
  static override isInstance(error: unknown): error is CacheTimeoutError {
    return hasMarker(error, marker);
  }
}
