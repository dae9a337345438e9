import { CheckpointNotFoundError } from '../../core/errors/checkpoint-not-found-error.js';
import { InterruptError } from '../../core/errors/interrupt-error.js';
import { InvalidStoreIdError } from '../../storage/errors/invalid-store-id-error.js';
import { toHttpError } from '../error-mapping.js';
import { HttpError } from '../http-error.js';

/**
 * `toHttpError` plus the graph's own errors: an unknown interrupt id or checkpoint → 404, an
 * interrupt already answered → 409 `conflict_error` (the run went on; another server may have
 * answered it), an id that breaks the id rules → 400.
 */
export function graphHttpError(error: unknown): HttpError {
  if (InterruptError.isInstance(error)) return new HttpError(error.reason === 'used' ? 409 : 404, error.reason === 'used' ? 'conflict_error' : 'not_found_error', error.message, { cause: error });
  if (CheckpointNotFoundError.isInstance(error)) return new HttpError(404, 'not_found_error', error.message, { cause: error });
  if (InvalidStoreIdError.isInstance(error)) return new HttpError(400, 'invalid_request_error', error.message, { cause: error });
  return toHttpError(error);
}
