import { scrubSecretText } from '../secret-text.js';
import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.ProviderError');

/** Fields describing a failed provider call. */
export interface ProviderErrorFields extends AgentlibErrorOptions {
  /** Provider name (`openai`, `anthropic`, …). */
  provider: string;
  /** HTTP status, when the failure was an HTTP response. */
  status?: number;
  /** The provider's request id, when it sent one. */
  requestId?: string;
  /** The model that was called. */
  model?: string;
  /** Whether retrying (or failing over) may succeed. Defaults from `status`. */
  retryable?: boolean;
  /** Seconds the provider asked us to wait (Retry-After). */
  retryAfterSeconds?: number;
  /** A short machine-readable kind: `rate_limit`, `overloaded`, `timeout`, `connection`, `auth`, … */
  kind?: string;
}

/** Statuses that are worth retrying or failing over on. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * A provider call failed: an error response, a timeout, a dropped connection or a broken stream.
 * Its message never carries anything shaped like a credential (`sk-…`, `Bearer …`, `api_key=…`:
 * replaced by `[REDACTED]` here); adapters also scrub their configured keys from it and from its
 * causes (`scrubProviderFailure`).
 */
export class ProviderError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'ProviderError';
  readonly provider: string;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly model: string | undefined;
  readonly retryable: boolean;
  readonly retryAfterSeconds: number | undefined;
  readonly kind: string | undefined;

  constructor(message: string, fields: ProviderErrorFields) {
    super(scrubSecretText(message), fields);
    this.provider = fields.provider;
    this.status = fields.status;
    this.requestId = fields.requestId;
    this.model = fields.model;
    this.retryable = fields.retryable ?? (fields.status === undefined ? false : isRetryableStatus(fields.status));
    this.retryAfterSeconds = fields.retryAfterSeconds;
    this.kind = fields.kind;
  }

  /** True when `error` is a ProviderError (works across package copies). */
  static override isInstance(error: unknown): error is ProviderError {
    return hasMarker(error, marker);
  }
}
