import { isRetryableStatus, ProviderError } from '../core/errors/provider-error.js';

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

/** Kinds of HTTP failure that are worth retrying (or failing over on), whatever the status. */
const RETRYABLE_KINDS = new Set(['timeout', 'rate_limit', 'overloaded', 'server']);

/** Whether an HTTP failure of this status and kind is retryable: the kind decides (an "overloaded" 400 is), else the status (409). */
export function isRetryableHttpFailure(status: number, kind: string): boolean {
  if (RETRYABLE_KINDS.has(kind)) return true;
  if (kind === 'auth' || kind === 'not_found') return false;
  return isRetryableStatus(status);
}

/**
 * A ProviderError for an HTTP error response: retryable for 408, 409, 429 and 5xx (incl. 529) and
 * whenever the kind is `overloaded` / `rate_limit` / `timeout` / `server` (kind and retryability
 * always agree), with Retry-After.
 */
export function providerHttpError(failure: HttpFailure): ProviderError {
  const kind = httpFailureKind(failure.status, failure.message, failure.code);
  const fields: ConstructorParameters<typeof ProviderError>[1] = {
    provider: failure.provider,
    status: failure.status,
    kind,
    retryable: isRetryableHttpFailure(failure.status, kind),
  };
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

/** Error codes of a dropped or refused connection (Node sockets, undici). */
const CONNECTION_CODES = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EAI_AGAIN',
  'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_CONNECT',
]);
/** Error codes of a network timeout. */
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** Messages of the same failures when no code survived (undici's "fetch failed" / "terminated", Node's "socket hang up"). */
const CONNECTION_MESSAGE = /ECONNRESET|ECONNREFUSED|EPIPE|socket hang up|fetch failed|^terminated$|other side closed|network socket disconnected/i;
const TIMEOUT_MESSAGE = /ETIMEDOUT|connect timeout|headers timeout|body timeout|socket timed? ?out/i;

/**
 * Whether `error` (or one of its causes) is a real transport failure: `connection` for a refused,
 * reset or dropped connection, `timeout` for a network timeout, undefined for anything else (a
 * bug, an SDK validation error, an unknown failure), which must not be retried.
 */
export function transportFailureKind(error: unknown): 'connection' | 'timeout' | undefined {
  let found: 'connection' | undefined;
  let current: unknown = error;
  // Walk the cause chain: undici wraps the socket error ("fetch failed" → ECONNREFUSED / connect timeout).
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    const { code, name, message } = current as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof code === 'string' && TIMEOUT_CODES.has(code)) return 'timeout';
    if (name === 'TimeoutError' || name === 'ConnectTimeoutError' || name === 'HeadersTimeoutError' || name === 'BodyTimeoutError') return 'timeout';
    if (typeof message === 'string' && TIMEOUT_MESSAGE.test(message)) return 'timeout';
    if ((typeof code === 'string' && CONNECTION_CODES.has(code)) || name === 'SocketError') found = 'connection';
    else if (typeof message === 'string' && CONNECTION_MESSAGE.test(message)) found = 'connection';
    current = (current as { cause?: unknown }).cause;
  }
  return found;
}

/**
 * A ProviderError for a failure that is neither an HTTP response nor a known broken stream: a real
 * transport failure becomes a retryable `connection` / `timeout` error; anything else gets
 * `fallbackKind` (default `unknown`) and is NOT retryable (retrying a bug or a rejected request
 * only hides it, and a fallback chain would hide a configuration error).
 */
export function providerUnknownError(
  provider: string,
  error: unknown,
  extra: { model?: string; fallbackKind?: string } = {},
): ProviderError {
  const message = error instanceof Error ? error.message : String(error);
  const transport = transportFailureKind(error);
  if (transport) {
    const cause = error instanceof Error && error.cause instanceof Error && error.cause.message !== message ? ` (${error.cause.message})` : '';
    return providerTransportError(provider, transport, message + cause, { ...(extra.model === undefined ? {} : { model: extra.model }), cause: error });
  }
  const kind = extra.fallbackKind ?? 'unknown';
  const fields: ConstructorParameters<typeof ProviderError>[1] = { provider, kind, retryable: false, cause: error };
  if (extra.model !== undefined) fields.model = extra.model;
  return new ProviderError(`${provider} call failed: ${message}`, fields);
}
