import { ProviderError } from '../core/errors/provider-error.js';

/** What an adapter knows about a failed HTTP exchange. */
export interface HttpFailure {
  provider: string;
  status: number;
  /** The provider's error message (from the JSON error body when there is one). */
  message: string;
  model?: string;
  requestId?: string;
  /** Response headers (any casing); `retry-after` / `retry-after-ms` are read from them. */
  headers?: Headers | Record<string, string | string[] | undefined>;
  /** The provider's error type/code (`rate_limit_error`, `RESOURCE_EXHAUSTED`, …). */
  code?: string;
  cause?: unknown;
}

function header(headers: HttpFailure['headers'], name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/** Seconds from `retry-after-ms`, `retry-after` (seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(headers: HttpFailure['headers'], now: () => number = Date.now): number | undefined {
  const ms = Number(header(headers, 'retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && header(headers, 'retry-after-ms') !== undefined) return ms / 1000;
  const raw = header(headers, 'retry-after');
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now()) / 1000);
}

const OVERLOADED = /overloaded|unavailable|capacity/i;
/** Credentials rejected, whatever the status (Gemini answers an invalid key with 400 API_KEY_INVALID). */
const AUTH = /API_KEY_INVALID|UNAUTHENTICATED|PERMISSION_DENIED|authentication_error|invalid_api_key/i;

/** The kind of an HTTP failure: `auth`, `not_found`, `rate_limit`, `overloaded`, `server`, `invalid_request`, `timeout`. */
export function httpFailureKind(status: number, message: string, code?: string): string {
  if (status === 401 || status === 403 || AUTH.test(code ?? '') || (status === 400 && AUTH.test(message))) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 408) return 'timeout';
  if (status === 429) return 'rate_limit';
  if (status === 529 || status === 503 || OVERLOADED.test(code ?? '') || (status >= 500 && OVERLOADED.test(message))) return 'overloaded';
  if (status >= 500) return 'server';
  return 'invalid_request';
}

/** A ProviderError for an HTTP error response: retryable for 408, 409, 429 and 5xx (incl. 529), with Retry-After. */
export function providerHttpError(failure: HttpFailure): ProviderError {
  const kind = httpFailureKind(failure.status, failure.message, failure.code);
  const fields: ConstructorParameters<typeof ProviderError>[1] = { provider: failure.provider, status: failure.status, kind };
  if (failure.model !== undefined) fields.model = failure.model;
  if (failure.requestId !== undefined) fields.requestId = failure.requestId;
  if (failure.cause !== undefined) fields.cause = failure.cause;
  const after = retryAfterSeconds(failure.headers);
  if (after !== undefined) fields.retryAfterSeconds = after;
  const where = failure.model ? ` (model ${failure.model})` : '';
  return new ProviderError(`${failure.provider} returned ${failure.status}${where}: ${failure.message}`, fields);
}

/** A ProviderError for a failure without a usable HTTP response: `connection`, `timeout` or a broken `stream`. */
export function providerTransportError(
  provider: string,
  kind: 'connection' | 'timeout' | 'stream',
  message: string,
  extra: { model?: string; cause?: unknown; retryable?: boolean } = {},
): ProviderError {
  const fields: ConstructorParameters<typeof ProviderError>[1] = { provider, kind, retryable: extra.retryable ?? true };
  if (extra.model !== undefined) fields.model = extra.model;
  if (extra.cause !== undefined) fields.cause = extra.cause;
  return new ProviderError(`${provider} ${kind} error: ${message}`, fields);
}
