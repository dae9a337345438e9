import { AgentlibError, hasMarker, type AgentlibErrorOptions } from '../../core/errors/agentlib-error.js';

const marker = Symbol.for('agentlib.error.StorageError');

/** Base class of the storage module's errors: a store could not be opened, read or written. */
export class StorageError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'StorageError';

  constructor(message: string, options: AgentlibErrorOptions = {}) {
    super(message, options);
  }

  /** True when `error` is a StorageError or a subclass (works across package copies). */
  static override isInstance(error: unknown): error is StorageError {
    return hasMarker(error, marker);
  }
}
