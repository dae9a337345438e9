import { hasMarker, type AgentlibErrorOptions } from '../../core/errors/agentlib-error.js';
import { StorageError } from './storage-error.js';

const marker = Symbol.for('agentlib.error.CorruptRecordError');

/** A stored record that cannot be read back: not JSON, the wrong kind, or missing its envelope. */
export class CorruptRecordError extends StorageError {
  private readonly [marker] = true;
  override readonly name: string = 'CorruptRecordError';
  /** Where the record was read from (a file, a row key). */
  readonly where: string;

  constructor(fields: { where: string; reason: string } & AgentlibErrorOptions) {
    super(`${fields.where}: corrupted record: ${fields.reason}`, fields);
    this.where = fields.where;
  }

  /** True when `error` is a CorruptRecordError (works across package copies). */
  static override isInstance(error: unknown): error is CorruptRecordError {
    return hasMarker(error, marker);
  }
}
