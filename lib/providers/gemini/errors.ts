import { ApiError } from '@google/genai';
import { ProviderError } from '../../core/errors/provider-error.js';
import { providerHttpError, providerTransportError, providerUnknownError, transportFailureKind, type HttpFailure } from '../provider-errors.js';
import { scrubProviderFailure } from '../scrub-provider-failure.js';
import type { GoogleErrorBody } from './sse-error-scan.js';

/** The provider name used on every Gemini error. */
export const GEMINI = 'gemini';

/** An error event inside a 200 stream (`data: {"error": {…}}`), as the adapter's SSE watch raises it. */
export class GeminiInStreamError extends Error {
  constructor(readonly body: GoogleErrorBody) {
    super(`in-stream error: ${body.message ?? JSON.stringify(body)}`);
    this.name = 'GeminiInStreamError';
  }
}

/** Response headers of the ApiErrors the adapter's HTTP watch raised (the SDK's ApiError has none). */
const responseHeaders = new WeakMap<ApiError, Headers>();

/** Keeps the headers of the response an ApiError was made from (for Retry-After). */
export function rememberResponseHeaders(error: ApiError, headers: Headers): void {
  responseHeaders.set(error, headers);
}

function parseJsonError(text: string): GoogleErrorBody | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  try {
    const parsed = JSON.parse(text.slice(start)) as { error?: GoogleErrorBody };
    return typeof parsed.error === 'object' && parsed.error !== null ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Extracts Google's `{"error":{…}}` body from an ApiError message. The SDK stringifies the body
 * (sometimes after a prefix); when the response was not labelled JSON (an `?alt=sse` request keeps
 * `text/event-stream` on errors) it wraps the raw text as `error.message`, so that is unwrapped too.
 */
function parseErrorBody(message: string): GoogleErrorBody | undefined {
  const outer = parseJsonError(message);
  const inner = typeof outer?.message === 'string' ? parseJsonError(outer.message) : undefined;
  return inner ?? outer;
}

/** `RetryInfo.retryDelay` (`"26s"`, `"1.5s"`) in seconds. */
function retryDelaySeconds(body: GoogleErrorBody | undefined): number | undefined {
  for (const detail of body?.details ?? []) {
    const match = typeof detail.retryDelay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay) : null;
    if (match) return Number(match[1]);
  }
  return undefined;
}

/** The ErrorInfo reason (`API_KEY_INVALID`, …) of a Google error body. */
function errorReason(body: GoogleErrorBody | undefined): string | undefined {
  return body?.details?.find((d) => typeof d.reason === 'string')?.reason;
}

/** The message of a Google error body, with its ErrorInfo reason. */
function describe(body: GoogleErrorBody | undefined, fallback: string): string {
  const reason = errorReason(body);
  const message = body?.message ?? fallback;
  return reason ? `${message} (${reason})` : message;
}

/** The Retry-After of an error: RetryInfo in the body first, else the response's headers. */
function retryHeaders(body: GoogleErrorBody | undefined, headers: Headers | undefined): HttpFailure['headers'] {
  const delay = retryDelaySeconds(body);
  return delay !== undefined ? { 'retry-after': String(delay) } : headers;
}

/** The SDK's own message for an error chunk it recognised in a stream (a chunk of bare JSON). */
const SDK_IN_STREAM = /^got status: /;

/** Maps an SDK ApiError (non-2xx response or an in-stream error object) to a ProviderError. */
export function apiErrorToProviderError(error: ApiError, model: string | undefined): ProviderError {
  const body = parseErrorBody(error.message);
  const headers = retryHeaders(body, responseHeaders.get(error));
  const message = describe(body, error.message);
  return providerHttpError({
    provider: GEMINI,
    status: error.status,
    message: SDK_IN_STREAM.test(error.message) ? `in-stream error: ${message}` : message,
    ...(model !== undefined ? { model } : {}),
    ...(body?.status !== undefined ? { code: body.status } : {}),
    ...(headers !== undefined ? { headers } : {}),
    cause: error,
  });
}

/** HTTP statuses of Google's canonical error codes (for an error object without a numeric `code`). */
const CANONICAL_STATUS: Readonly<Record<string, number>> = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ABORTED: 409,
  ALREADY_EXISTS: 409,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  INTERNAL: 500,
  UNKNOWN: 500,
  DATA_LOSS: 500,
  NOT_IMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
};

/**
 * An error event inside a 200 stream, typed as the same error would be as an HTTP response (its
 * `code`, else its canonical `status`): 400 INVALID_ARGUMENT is a non-retryable invalid_request,
 * 429 RESOURCE_EXHAUSTED a retryable rate_limit (RetryInfo honoured), 503 UNAVAILABLE a retryable
 * overloaded error. Without either, it is a retryable `stream` error.
 */
function inStreamError(error: GeminiInStreamError, model: string | undefined): ProviderError {
  const { body } = error;
  const status = typeof body.code === 'number' && body.code >= 400 && body.code < 600 ? body.code : CANONICAL_STATUS[body.status ?? ''];
  const message = `in-stream error: ${describe(body, 'no message')}`;
  if (status === undefined) return providerTransportError(GEMINI, 'stream', message, { cause: error, ...(model !== undefined ? { model } : {}) });
  const headers = retryHeaders(body, undefined);
  return providerHttpError({
    provider: GEMINI,
    status,
    message,
    ...(model !== undefined ? { model } : {}),
    ...(body.status !== undefined ? { code: body.status } : {}),
    ...(headers !== undefined ? { headers } : {}),
    cause: error,
  });
}

/** Where a failure happened: before the response arrived, or while reading a stream. */
export type FailurePhase = 'request' | 'stream';

/** What the caller knows when a call fails. */
export interface FailureContext {
  model: string | undefined;
  /** The caller's own signal: when it aborted, its reason is rethrown as is. */
  signal: AbortSignal | undefined;
  /** True when the adapter's own per-call timeout fired. */
  timedOut: boolean;
  timeoutMs: number | undefined;
  /** Which limit ran out, as words (CallControl.describeTimeout); default: the total. */
  timeoutText?: string;
  phase: FailurePhase;
  /** The client's configured credentials (API key): scrubbed from the error and its causes. */
  credentials?: readonly (string | null | undefined)[];
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}

/**
 * Turns anything the SDK threw into what the adapter throws: the caller's abort reason, a
 * ProviderError for an HTTP error, a timeout, a dropped connection or a broken stream, with the
 * configured credentials and anything shaped like one scrubbed from it and its causes.
 */
export function toGeminiError(error: unknown, context: FailureContext): unknown {
  return scrubProviderFailure(mapError(error, context), context.credentials ?? []);
}

function mapError(error: unknown, context: FailureContext): unknown {
  if (context.signal?.aborted) return context.signal.reason;
  if (ProviderError.isInstance(error)) return error;
  const extra = { cause: error, ...(context.model !== undefined ? { model: context.model } : {}) };
  if (context.timedOut) return providerTransportError(GEMINI, 'timeout', context.timeoutText ?? `no response within ${context.timeoutMs ?? 0} ms`, extra);
  if (error instanceof GeminiInStreamError) return inStreamError(error, context.model);
  if (error instanceof ApiError) return apiErrorToProviderError(error, context.model);
  // A body cut or garbled while streaming is a broken stream (retryable before any output).
  if (context.phase === 'stream' && (error instanceof SyntaxError || BROKEN_STREAM.test(errorText(error)) || transportFailureKind(error) !== undefined)) {
    return providerTransportError(GEMINI, 'stream', errorText(error), extra);
  }
  // Before the response: a refused / reset connection or a network timeout is retryable; anything
  // else (an SDK validation error, a bug) is not.
  return providerUnknownError(GEMINI, error, context.model !== undefined ? { model: context.model } : {});
}

/** The SDK's own messages for a stream body it could not parse. */
const BROKEN_STREAM = /Incomplete JSON segment|exception parsing stream chunk|Response body is empty/i;
