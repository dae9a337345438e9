import { CheckpointNotFoundError } from '../../core/errors/checkpoint-not-found-error.js';
import { InterruptError } from '../../core/errors/interrupt-error.js';
import { InvalidStoreIdError } from '../../storage/errors/invalid-store-id-error.js';
import { toHttpError } from '../error-mapping.js';
import { HttpError } from '../http-error.js';

/**
 * `toHttpError` plus the graph's own errors: an unknown interrupt id or checkpoint → 404, an
 * interrupt already answered, or being answered by another resume right now (perhaps through
 * another server sharing the store) → 409 `conflict_error`, an id that breaks the id rules → 400.
 */
export function graphHttpError(error: unknown): HttpError {
  if (InterruptError.isInstance(error)) {
    return error.reason === 'unknown' ? new HttpError(404, 'not_found_error', error.message, { cause: error }) : new HttpError(409, 'conflict_error', error.message, { cause: error });
  }
  if (CheckpointNotFoundError.isInstance(error)) return new HttpError(404, 'not_found_error', error.message, { cause: error });
  if (InvalidStoreIdError.isInstance(error)) return new HttpError(400, 'invalid_request_error', error.message, { cause: error });
  return toHttpError(error);
}
