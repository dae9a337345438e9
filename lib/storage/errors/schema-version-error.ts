import { hasMarker, type AgentlibErrorOptions } from '../../core/errors/agentlib-error.js';
import { StorageError } from './storage-error.js';

const marker = Symbol.for('agentlib.error.SchemaVersionError');

/** A database or record was written by a different (usually newer) schema version than this code knows. */
export class SchemaVersionError extends StorageError {
  private readonly [marker] = true;
  override readonly name: string = 'SchemaVersionError';
  /** The subsystem whose schema it is (`sessions`, `checkpoints`, …). */
  readonly subsystem: string;
  /** The version found in the store. */
  readonly found: number;
  /** The newest version this code knows. */
  readonly supported: number;

  constructor(fields: { subsystem: string; found: number; supported: number; where: string } & AgentlibErrorOptions) {
    const newer = fields.found > fields.supported ? ': it was written by a newer agentlib, so upgrade agentlib to read it' : '';
    super(`${fields.where}: the ${fields.subsystem} schema is version ${fields.found}, and this agentlib knows versions up to ${fields.supported}${newer}`, fields);
    this.subsystem = fields.subsystem;
    this.found = fields.found;
    this.supported = fields.supported;
  }

  /** True when `error` is a SchemaVersionError (works across package copies). */
  static override isInstance(error: unknown): error is SchemaVersionError {
    return hasMarker(error, marker);
  }
}
