import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.CancellationError');

/** A run was cancelled through its CancellationToken or AbortSignal. */
export class CancellationError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'CancellationError';
  /** The reason given to the token, if any. */
  readonly reason: unknown;

  constructor(fields: { reason?: unknown; message?: string } & AgentlibErrorOptions = {}) {
    super(fields.message ?? 'The run was cancelled', fields);
    this.reason = fields.reason;
  }

  /** True when `error` is a CancellationError (works across package copies). */
  static override isInstance(error: unknown): error is CancellationError {
    return hasMarker(error, marker);
  }
}
