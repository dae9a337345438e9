import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.UrlRefusedError');

/** A URL, or an address it resolves to or redirects to, was refused by the SSRF-safe fetch. */
export class UrlRefusedError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'UrlRefusedError';

  constructor(message: string, options: AgentlibErrorOptions = {}) {
    super(message, options);
  }

  /** True when `error` is a UrlRefusedError (works across package copies). */
  static override isInstance(error: unknown): error is UrlRefusedError {
    return hasMarker(error, marker);
  }
}
