import { ApiError } from '@google/genai';
import { ProviderError } from '../../core/errors/provider-error.js';
import { providerHttpError, providerTransportError, providerUnknownError, transportFailureKind } from '../provider-errors.js';

/** The provider name used on every Gemini error. */
export const GEMINI = 'gemini';

interface GoogleErrorBody {
  code?: number;
  message?: string;
  status?: string;
  details?: { '@type'?: string; retryDelay?: string; reason?: string }[];
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

/** Maps an SDK ApiError (non-2xx response or an in-stream error object) to a ProviderError. */
export function apiErrorToProviderError(error: ApiError, model: string | undefined): ProviderError {
  const body = parseErrorBody(error.message);
  const delay = retryDelaySeconds(body);
  const reason = errorReason(body);
  const message = body?.message ?? error.message;
  return providerHttpError({
    provider: GEMINI,
    status: error.status,
    message: reason ? `${message} (${reason})` : message,
    ...(model !== undefined ? { model } : {}),
    ...(body?.status !== undefined ? { code: body.status } : {}),
    ...(delay !== undefined ? { headers: { 'retry-after': String(delay) } } : {}),
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
  phase: FailurePhase;
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}

/**
 * Turns anything the SDK threw into what the adapter throws: the caller's abort reason, a
 * ProviderError for an HTTP error, a timeout, a dropped connection or a broken stream.
 */
export function toGeminiError(error: unknown, context: FailureContext): unknown {
  if (context.signal?.aborted) return context.signal.reason;
  if (ProviderError.isInstance(error)) return error;
  const extra = { cause: error, ...(context.model !== undefined ? { model: context.model } : {}) };
  if (context.timedOut) return providerTransportError(GEMINI, 'timeout', `no response within ${context.timeoutMs ?? 0} ms`, extra);
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
