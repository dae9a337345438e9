import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, OpenAIError } from 'openai';
import { AgentlibError } from '../../core/errors/agentlib-error.js';
import { providerHttpError, providerTransportError, providerUnknownError } from '../provider-errors.js';
import type { CallControl } from '../call-control.js';

/** What the error mapper needs to know about the failed call. */
export interface FailureContext {
  provider: string;
  model: string;
  call: CallControl;
}

function bodyMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string' && body.message) return body.message;
  return error.message.replace(/^\d{3}\s+/, '');
}

/**
 * Turns whatever the SDK (or the stream) threw into what agentlib throws: the caller's abort reason
 * when the caller aborted, otherwise a typed ProviderError (HTTP, timeout, connection or stream).
 */
export function toProviderFailure(error: unknown, ctx: FailureContext): unknown {
  const { provider, model, call } = ctx;
  if (call.callerAborted) return call.signal.reason as unknown;
  if (call.timedOut || error instanceof APIConnectionTimeoutError) {
    return providerTransportError(provider, 'timeout', `no response from ${provider} in time`, { model, cause: error });
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
  if (error.status === undefined) {
    // An error event inside a 200 stream.
    return providerTransportError(provider, 'stream', `error event in stream: ${bodyMessage(error)}`, { model, cause: error });
  }
  const failure: Parameters<typeof providerHttpError>[0] = { provider, status: error.status, message: bodyMessage(error), model, cause: error };
  if (error.requestID) failure.requestId = error.requestID;
  if (error.headers) failure.headers = error.headers;
  const code = error.code ?? error.type;
  if (code) failure.code = code;
  return providerHttpError(failure);
}
