import { hasMarker, type AgentlibErrorOptions } from '../../core/errors/agentlib-error.js';
import { StorageError } from './storage-error.js';

const marker = Symbol.for('agentlib.error.StorageUrlError');

/** A store URL that cannot be used here: an unknown or refused scheme, or a malformed URL. */
export class StorageUrlError extends StorageError {
  private readonly [marker] = true;
  override readonly name: string = 'StorageUrlError';
  /** The URL as given (credentials removed). */
  readonly url: string;

  constructor(fields: { url: string; message: string } & AgentlibErrorOptions) {
    super(fields.message, fields);
    this.url = fields.url;
  }

  /** True when `error` is a StorageUrlError (works across package copies). */
  static override isInstance(error: unknown): error is StorageUrlError {
    return hasMarker(error, marker);
  }
}
