import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.MemoryLimitExceededError');

/** A memory component exceeded its configured limit. */
export class MemoryLimitExceededError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'MemoryLimitExceededError';
  /** The configured limit. */
  readonly limit: number;
  /** The size that was reached. */
  readonly actual: number;

  constructor(message: string, fields: { limit: number; actual: number } & AgentlibErrorOptions) {
    super(message, fields);
    this.limit = fields.limit;
    this.actual = fields.actual;
  }

  /** True when `error` is a MemoryLimitExceededError (works across package copies). */
  static override isInstance(error: unknown): error is MemoryLimitExceededError {
    return hasMarker(error, marker);
  }
}
