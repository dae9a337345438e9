import { CancellationError } from '../core/errors/cancellation-error.js';
import { CassetteError } from '../core/errors/cassette-error.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { GlobSyntaxError } from '../core/errors/glob-syntax-error.js';
import { GuardrailError } from '../core/errors/guardrail-error.js';
import { ProviderError } from '../core/errors/provider-error.js';
import { StructuredOutputError } from '../core/errors/structured-output-error.js';
import { HttpError } from './http-error.js';

/**
 * Maps anything a request handler or an agent run threw to the HttpError it is answered with:
 * HttpError as is; ProviderError → 502 (the model provider failed, never a 200 with error text);
 * StructuredOutputError → 502 (the model gave no valid structured output); GuardrailError →
 * `guardrail_error`, 400 when the input was blocked, 422 when the answer was;
 * ConfigurationError / GlobSyntaxError (bad request options such as `response_format`) → 400;
 * a CassetteError of `serve --replay` (the request is not in the cassette) → 422
 * `replay_mismatch_error` with the cassette and the first difference (retrying cannot help);
 * CancellationError → 503; anything else → 500 with a generic message (details go to the log,
 * not to the client).
 */
export function toHttpError(error: unknown): HttpError {
  if (HttpError.isInstance(error)) return error;
  if (ProviderError.isInstance(error)) {
    const status = error.status === undefined ? '' : ` (HTTP ${error.status})`;
    return new HttpError(502, 'provider_error', `The model provider ${error.provider} failed${status}: ${error.message}`, { cause: error });
  }
  if (StructuredOutputError.isInstance(error)) return new HttpError(502, 'provider_error', `The model gave no valid structured output: ${error.message}`, { cause: error });
  if (GuardrailError.isInstance(error)) {
    return new HttpError(error.stage === 'input' ? 400 : 422, 'guardrail_error', `Blocked by a guardrail: ${error.message}`, { cause: error });
  }
  if (ConfigurationError.isInstance(error) || GlobSyntaxError.isInstance(error)) return new HttpError(400, 'invalid_request_error', error.message, { cause: error });
  if (CassetteError.isInstance(error) && (error.kind === 'mismatch' || error.kind === 'exhausted')) {
    return new HttpError(422, 'replay_mismatch_error', error.message, { cause: error });
  }
  if (CancellationError.isInstance(error)) return new HttpError(503, 'service_unavailable_error', 'The run was cancelled', { cause: error });
  return new HttpError(500, 'internal_error', 'Internal server error (details are in the server log)', { cause: error });
}

/**
 * What a request that failed is answered with (`toHttpError`); 500s and 502s are reported to
 * `logError` with the request's method and path, since their details never reach the client.
 */
export function requestFailure(error: unknown, method: string, path: string, logError: (message: string, error: unknown) => void): HttpError {
  const failure = toHttpError(error);
  if (failure.status === 500 || failure.status === 502) logError(`${method} ${path} failed`, error);
  return failure;
}
