// What an OpenAI error body's `code` / `type` say about the failure, for the cases the HTTP status
// alone gets wrong: a quota or billing refusal (429 that waiting does not fix) and an error event
// inside a 200 stream (no status at all).
import { httpFailureKind, isRetryableHttpFailure } from '../provider-errors.js';

/** A failure's kind and whether retrying (or failing over) may help. */
export interface ErrorClass {
  kind: string;
  retryable: boolean;
}

/** The fields of an OpenAI(-compatible) error body the classification reads. */
export interface ErrorBody {
  code?: unknown;
  type?: unknown;
  status?: unknown;
  message?: unknown;
}

/** The kind of a quota or billing refusal: not retryable (it lasts until the plan changes), but it fails over. */
export const QUOTA_KIND = 'quota';

/** Codes / types of an exhausted quota or an inactive billing account. */
const QUOTA = new Set(['insufficient_quota', 'billing_not_active', 'billing_hard_limit_reached']);

/** Code / type patterns in the order they are tried (the first match decides). */
const BY_NAME: readonly (readonly [RegExp, ErrorClass])[] = [
  [/rate_limit|too_many_requests|^(?:tokens|requests)$/i, { kind: 'rate_limit', retryable: true }],
  [/overloaded|unavailable|capacity/i, { kind: 'overloaded', retryable: true }],
  [/server_error|internal_error|^api_error$|^internal$/i, { kind: 'server', retryable: true }],
  [/timeout|timed_out/i, { kind: 'timeout', retryable: true }],
  [/invalid_api_key|authentication|unauthori[sz]ed|permission|forbidden/i, { kind: 'auth', retryable: false }],
  [/not_found/i, { kind: 'not_found', retryable: false }],
  [/invalid|unsupported|context_length|content_policy|content_filter|bad_request|unprocessable/i, { kind: 'invalid_request', retryable: false }],
];

const OVERLOADED_MESSAGE = /overloaded|unavailable|capacity/i;

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** True when the error's code or type is a quota / billing refusal (`insufficient_quota`, …). */
export function isQuotaError(body: ErrorBody): boolean {
  return [body.code, body.type].some((value) => typeof value === 'string' && QUOTA.has(value));
}

/** An HTTP-like status carried in the body (`code: 429`, `status: 503`, as compatible servers send), if any. */
function bodyStatus(body: ErrorBody): number | undefined {
  for (const value of [body.status, body.code]) {
    const status = typeof value === 'number' ? value : typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : NaN;
    if (Number.isInteger(status) && status >= 400 && status <= 599) return status;
  }
  return undefined;
}

/**
 * The class of an error event received inside a 200 stream, as an HTTP error with the same body
 * would get it: a quota / billing code is `quota` (not retryable); a status in the body (`code:
 * 429`) is mapped like that HTTP status; otherwise the code, then the type, decides
 * (`invalid_request_error` → `invalid_request`, `server_error` → `server` or `overloaded`,
 * `rate_limit_exceeded` → `rate_limit`, …). Undefined when nothing is recognised (the caller then
 * reports a retryable broken stream).
 */
export function classifyStreamError(body: ErrorBody): ErrorClass | undefined {
  if (isQuotaError(body)) return { kind: QUOTA_KIND, retryable: false };
  const message = text(body.message) ?? '';
  const status = bodyStatus(body);
  if (status !== undefined) {
    const kind = httpFailureKind(status, message, text(body.type));
    return { kind, retryable: isRetryableHttpFailure(status, kind) };
  }
  for (const name of [text(body.code), text(body.type)]) {
    if (name === undefined) continue;
    const match = BY_NAME.find(([pattern]) => pattern.test(name));
    if (!match) continue;
    const found = match[1];
    return found.kind === 'server' && OVERLOADED_MESSAGE.test(message) ? { kind: 'overloaded', retryable: true } : { ...found };
  }
  return undefined;
}
