import { AgentlibError } from '../../core/errors/agentlib-error.js';
import { ProviderError } from '../../core/errors/provider-error.js';
import type { RecordedError } from './cassette.js';

/** Turns any thrown value into its stored form (ProviderError fields kept). */
export function recordError(error: unknown): RecordedError {
  if (ProviderError.isInstance(error)) {
    const out: RecordedError = { name: error.name, message: error.message, provider: error.provider, retryable: error.retryable };
    if (error.status !== undefined) out.status = error.status;
    if (error.requestId !== undefined) out.requestId = error.requestId;
    if (error.model !== undefined) out.model = error.model;
    if (error.retryAfterSeconds !== undefined) out.retryAfterSeconds = error.retryAfterSeconds;
    if (error.kind !== undefined) out.kind = error.kind;
    return out;
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/** Rebuilds a throwable error from its stored form: a ProviderError when it was one. */
export function reviveError(recorded: RecordedError): Error {
  if (recorded.provider !== undefined) {
    const fields: ConstructorParameters<typeof ProviderError>[1] = { provider: recorded.provider };
    if (recorded.status !== undefined) fields.status = recorded.status;
    if (recorded.requestId !== undefined) fields.requestId = recorded.requestId;
    if (recorded.model !== undefined) fields.model = recorded.model;
    if (recorded.retryable !== undefined) fields.retryable = recorded.retryable;
    if (recorded.retryAfterSeconds !== undefined) fields.retryAfterSeconds = recorded.retryAfterSeconds;
    if (recorded.kind !== undefined) fields.kind = recorded.kind;
    return new ProviderError(recorded.message, fields);
  }
  const error = new AgentlibError(recorded.message);
  Object.defineProperty(error, 'name', { value: recorded.name });
  return error;
}
