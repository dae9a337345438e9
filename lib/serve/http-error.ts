import { AgentlibError, hasMarker, type AgentlibErrorOptions } from '../core/errors/agentlib-error.js';

const marker = Symbol.for('agentlib.error.HttpError');

/** The `error.type` strings of the HTTP API, one per status (docs/http-api.md). */
export type HttpErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'forbidden_error'
  | 'not_found_error'
  | 'method_not_allowed_error'
  | 'conflict_error'
  | 'request_timeout_error'
  | 'request_too_large_error'
  | 'unsupported_media_type_error'
  | 'rate_limit_error'
  | 'replay_mismatch_error'
  | 'guardrail_error'
  | 'internal_error'
  | 'provider_error'
  | 'service_unavailable_error'
  | 'timeout_error';

/** Options of an HttpError besides status, type and message. */
export interface HttpErrorOptions extends AgentlibErrorOptions {
  /** Extra response headers (`Retry-After`, `WWW-Authenticate`). */
  headers?: Record<string, string>;
}

/**
 * An error the HTTP layer answers with `status` and the JSON body
 * `{ "error": { "type", "message" } }`. Thrown by request parsing and limits, and made from
 * library errors by `toHttpError` (a ProviderError becomes a 502, …).
 */
export class HttpError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'HttpError';
  readonly status: number;
  readonly type: HttpErrorType;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, type: HttpErrorType, message: string, options: HttpErrorOptions = {}) {
    super(message, options);
    this.status = status;
    this.type = type;
    this.headers = options.headers ?? {};
  }

  /** The JSON error body. */
  toJSON(): { error: { type: HttpErrorType; message: string } } {
    return { error: { type: this.type, message: this.message } };
  }

  /** True when `error` is an HttpError (works across package copies). */
  static override isInstance(error: unknown): error is HttpError {
    return hasMarker(error, marker);
  }
}

/** A 400 for a request body or parameter that is wrong. */
export function badRequest(message: string): HttpError {
  return new HttpError(400, 'invalid_request_error', message);
}
