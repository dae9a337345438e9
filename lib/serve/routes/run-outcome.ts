import type { AgentResult } from '../../agent/result.js';
import { HttpError } from '../http-error.js';

/**
 * A run cut short by the slot (timeout, shutdown, client gone) ends with status `cancelled`; the
 * client gets the reason (504, 503), not a cancelled answer with status 200.
 */
export function throwIfAborted(signal: AbortSignal, result: AgentResult): void {
  if (!signal.aborted || result.status !== 'cancelled') return;
  const reason: unknown = signal.reason;
  throw HttpError.isInstance(reason) ? reason : new HttpError(503, 'service_unavailable_error', 'The run was cancelled');
}

/** The abort reason of a client that went away (never sent: there is nobody to send it to). */
export function clientClosed(): HttpError {
  return new HttpError(499, 'invalid_request_error', 'The client closed the connection');
}
