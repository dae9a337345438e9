import { hasMarker, type AgentlibErrorOptions } from '../../core/errors/agentlib-error.js';
import { StorageError } from './storage-error.js';

const marker = Symbol.for('agentlib.error.MissingDependencyError');

/** An optional package that a feature needs is not installed; the message gives the npm command. */
export class MissingDependencyError extends StorageError {
  private readonly [marker] = true;
  override readonly name: string = 'MissingDependencyError';
  /** The package to install. */
  readonly packageName: string;

  constructor(fields: { packageName: string; purpose: string } & AgentlibErrorOptions) {
    super(`install ${fields.packageName} to use ${fields.purpose}: npm install ${fields.packageName}`, fields);
    this.packageName = fields.packageName;
  }

  /** True when `error` is a MissingDependencyError (works across package copies). */
  static override isInstance(error: unknown): error is MissingDependencyError {
    return hasMarker(error, marker);
  }
}
