import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, OpenAIError } from 'openai';
import { AgentlibError } from '../../core/errors/agentlib-error.js';
import { ProviderError } from '../../core/errors/provider-error.js';
import { providerHttpError, providerTransportError, providerUnknownError } from '../provider-errors.js';
import { scrubProviderFailure } from '../scrub-provider-failure.js';
import type { CallControl } from '../call-control.js';
import { classifyStreamError, isQuotaError, QUOTA_KIND, type ErrorBody } from './error-codes.js';

/** What the error mapper needs to know about the failed call. */
export interface FailureContext {
  provider: string;
  model: string;
  call: CallControl;
  /** The client's configured credentials (API key): scrubbed from the error and its causes. */
  credentials?: readonly (string | null | undefined)[];
}

function bodyMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string' && body.message) return body.message;
  return error.message.replace(/^\d{3}\s+/, '');
}

/**
 * Turns whatever the SDK (or the stream) threw into what agentlib throws: the caller's abort reason
 * when the caller aborted, otherwise a typed ProviderError (HTTP, timeout, connection or stream)
 * with the configured credentials and anything shaped like one scrubbed from it and its causes.
 */
export function toProviderFailure(error: unknown, ctx: FailureContext): unknown {
  return scrubProviderFailure(mapFailure(error, ctx), ctx.credentials ?? []);
}

function mapFailure(error: unknown, ctx: FailureContext): unknown {
  const { provider, model, call } = ctx;
  if (call.callerAborted) return call.signal.reason as unknown;
  if (call.timedOut || error instanceof APIConnectionTimeoutError) {
    return providerTransportError(provider, 'timeout', call.timedOut ? call.describeTimeout() : `no response from ${provider} in time`, { model, cause: error });
  }
  if (AgentlibError.isInstance(error)) return error;
  if (error instanceof APIUserAbortError) {
    return providerTransportError(provider, 'stream', 'request aborted', { model, cause: error });
  }
  if (error instanceof APIConnectionError) {
    const reason = error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
    return providerTransportError(provider, 'connection', reason, { model, cause: error });
  }
  if (error instanceof APIError) return fromApiError(error as APIError<number | undefined, Headers | undefined>, ctx);
  if (error instanceof SyntaxError) {
    return providerTransportError(provider, 'stream', `malformed stream chunk: ${error.message}`, { model, cause: error });
  }
  // Real transport failures (undici's "terminated" / "fetch failed", ECONNRESET, socket hang up,
  // network timeouts) are retryable connection / timeout errors; anything else is not retried:
  // other SDK errors are rejected requests, the rest unknown failures (a bug must not be retried).
  return providerUnknownError(provider, error, { model, fallbackKind: error instanceof OpenAIError ? 'invalid_request' : 'unknown' });
}

function fromApiError(error: APIError<number | undefined, Headers | undefined>, ctx: FailureContext): unknown {
  const { provider, model } = ctx;
  const body: ErrorBody = typeof error.error === 'object' && error.error !== null ? error.error : { code: error.code, type: error.type };
  if (error.status === undefined) return fromStreamErrorEvent(error, body, ctx);
  const failure: Parameters<typeof providerHttpError>[0] = { provider, status: error.status, message: bodyMessage(error), model, cause: error };
  if (error.requestID) failure.requestId = error.requestID;
  if (error.headers) failure.headers = error.headers;
  const code = error.code ?? error.type;
  if (code) failure.code = code;
  const mapped = providerHttpError(failure);
  // `insufficient_quota` comes as a 429 but waiting does not help: not retried (it still fails over).
  return isQuotaError(body) ? withClass(mapped, { kind: QUOTA_KIND, retryable: false }) : mapped;
}

/**
 * An error event inside a 200 stream, classified by its code / type like an HTTP error with the
 * same body (see classifyStreamError); an unrecognised one is a retryable broken stream. It has
 * no status (the response was a 200) but keeps the request id.
 */
function fromStreamErrorEvent(error: APIError<number | undefined, Headers | undefined>, body: ErrorBody, ctx: FailureContext): ProviderError {
  const { provider, model } = ctx;
  const found = classifyStreamError(body);
  const fields: ConstructorParameters<typeof ProviderError>[1] = { provider, model, kind: found?.kind ?? 'stream', retryable: found?.retryable ?? true, cause: error };
  if (error.requestID) fields.requestId = error.requestID;
  return new ProviderError(`${provider} stream error event (model ${model}): ${bodyMessage(error)}`, fields);
}

/** The same error with another kind and retryability (everything else kept). */
function withClass(error: ProviderError, found: { kind: string; retryable: boolean }): ProviderError {
  const fields: ConstructorParameters<typeof ProviderError>[1] = { provider: error.provider, kind: found.kind, retryable: found.retryable, cause: error.cause };
  if (error.status !== undefined) fields.status = error.status;
  if (error.requestId !== undefined) fields.requestId = error.requestId;
  if (error.model !== undefined) fields.model = error.model;
  if (error.retryAfterSeconds !== undefined) fields.retryAfterSeconds = error.retryAfterSeconds;
  return new ProviderError(error.message, fields);
}
