import { hasMarker, type AgentlibErrorOptions } from '../../core/errors/agentlib-error.js';
import { StorageError } from './storage-error.js';

const marker = Symbol.for('agentlib.error.NonSerializableError');

/** A value that JSON cannot hold faithfully (a function, a class instance, a cycle, a BigInt, NaN…) was about to be stored. */
export class NonSerializableError extends StorageError {
  private readonly [marker] = true;
  override readonly name: string = 'NonSerializableError';
  /** The path of the offending value: `state.data.orders[3].placedAt`. */
  readonly path: string;

  constructor(fields: { path: string; reason: string } & AgentlibErrorOptions) {
    super(`cannot store ${fields.path}: ${fields.reason}`, fields);
    this.path = fields.path;
  }

  /** True when `error` is a NonSerializableError (works across package copies). */
  static override isInstance(error: unknown): error is NonSerializableError {
    return hasMarker(error, marker);
  }
}
