import { AnthropicError, APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ProviderError } from '../../core/errors/provider-error.js';
import type { CallControl } from '../call-control.js';
import { providerHttpError, providerTransportError, providerUnknownError } from '../provider-errors.js';
import { scrubProviderFailure } from '../scrub-provider-failure.js';

/** The provider name the Anthropic adapter reports. */
export const ANTHROPIC = 'anthropic';

interface ErrorBody {
  error?: { type?: string; message?: string };
  message?: string;
  request_id?: string;
}

function bodyOf(error: SdkApiError): ErrorBody | undefined {
  const raw: unknown = error.error;
  return raw && typeof raw === 'object' ? raw : undefined;
}

/** The error type and message of an API error, from its JSON body when there is one. */
function describe(error: SdkApiError): { type: string | undefined; message: string } {
  const body = bodyOf(error);
  const type = body?.error?.type ?? error.type ?? undefined;
  const message = body?.error?.message ?? error.apiMessage ?? body?.message ?? error.message;
  return { type, message };
}

/**
 * Converts whatever the SDK (or the stream) threw into a ProviderError. An abort through the
 * caller's signal is rethrown as the signal's reason; a call whose CallControl timed out (no
 * response, or a stream silent for too long) fails with a retryable `timeout` error; an error
 * that is neither an API error nor a real transport failure is not retryable. The client's
 * `credentials` (API key, auth token) and anything shaped like one are scrubbed from the error and
 * its causes.
 */
export function toProviderError(error: unknown, model: string, signal?: AbortSignal, call?: CallControl, credentials: readonly (string | null | undefined)[] = []): unknown {
  return scrubProviderFailure(mapError(error, model, signal, call), credentials);
}

function mapError(error: unknown, model: string, signal?: AbortSignal, call?: CallControl): unknown {
  if (signal?.aborted) return signal.reason as unknown;
  if (call?.timedOut) {
    const reason: unknown = call.signal.reason;
    const detail = reason instanceof Error ? reason.message : 'timed out';
    return providerTransportError(ANTHROPIC, 'timeout', `anthropic: ${detail}`, { model, cause: error });
  }
  if (ProviderError.isInstance(error)) return error;
  if (error instanceof APIUserAbortError) return providerTransportError(ANTHROPIC, 'connection', 'request aborted', { model, cause: error });
  if (error instanceof APIConnectionTimeoutError) return providerTransportError(ANTHROPIC, 'timeout', error.message || 'request timed out', { model, cause: error });
  if (error instanceof APIConnectionError) return providerTransportError(ANTHROPIC, 'connection', describeCause(error), { model, cause: error });
  if (error instanceof APIError) return apiError(error as SdkApiError, model);
  if (error instanceof SyntaxError) return providerTransportError(ANTHROPIC, 'stream', `malformed event: ${error.message}`, { model, cause: error });
  // A real transport failure is a retryable connection / timeout error; anything else (the SDK
  // refusing a request, or a bug) is not.
  return providerUnknownError(ANTHROPIC, error, { model, fallbackKind: error instanceof AnthropicError ? 'invalid_request' : 'unknown' });
}

type SdkApiError = APIError<number | undefined, Headers | undefined, object | undefined>;

function apiError(error: SdkApiError, model: string): ProviderError {
  const { type, message } = describe(error);
  if (error.status === undefined) return inStreamError(type, message, model, error);
  const failure: Parameters<typeof providerHttpError>[0] = { provider: ANTHROPIC, status: error.status, message, model, cause: error };
  const requestId = error.requestID ?? bodyOf(error)?.request_id;
  if (requestId) failure.requestId = requestId;
  if (error.headers) failure.headers = error.headers;
  if (type) failure.code = type;
  return providerHttpError(failure);
}

function describeCause(error: APIConnectionError): string {
  const cause = (error as { cause?: unknown }).cause;
  const detail = cause instanceof Error ? cause.message : undefined;
  return detail ? `${error.message} (${detail})` : error.message;
}

const IN_STREAM_STATUS: Readonly<Record<string, number>> = {
  overloaded_error: 529,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
};

/** An `event: error` inside a 200 stream: typed by its error type (overloaded → 529, retryable). */
function inStreamError(type: string | undefined, message: string, model: string, cause: unknown): ProviderError {
  const status = type ? IN_STREAM_STATUS[type] : undefined;
  if (status !== undefined) {
    const failure: Parameters<typeof providerHttpError>[0] = { provider: ANTHROPIC, status, message: `in-stream error: ${message}`, model, cause };
    if (type) failure.code = type;
    return providerHttpError(failure);
  }
  return providerTransportError(ANTHROPIC, 'stream', `in-stream error${type ? ` (${type})` : ''}: ${message}`, { model, cause });
}
