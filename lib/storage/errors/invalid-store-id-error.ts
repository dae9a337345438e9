import { hasMarker, type AgentlibErrorOptions } from '../../core/errors/agentlib-error.js';
import { StorageError } from './storage-error.js';

const marker = Symbol.for('agentlib.error.InvalidStoreIdError');

/** An id (session, thread, checkpoint, namespace) that a store refuses: only `[A-Za-z0-9_.-]`, 1–128 characters, no `..`. */
export class InvalidStoreIdError extends StorageError {
  private readonly [marker] = true;
  override readonly name: string = 'InvalidStoreIdError';
  /** What the id names (`session id`, `thread id`). */
  readonly what: string;

  constructor(fields: { what: string; id: string; reason: string } & AgentlibErrorOptions) {
    super(`invalid ${fields.what} ${JSON.stringify(fields.id.length > 80 ? `${fields.id.slice(0, 80)}…` : fields.id)}: ${fields.reason}`, fields);
    this.what = fields.what;
  }

  /** True when `error` is a InvalidStoreIdError (works across package copies). */
  static override isInstance(error: unknown): error is InvalidStoreIdError {
    return hasMarker(error, marker);
  }
}
