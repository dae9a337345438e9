const baseMarker = Symbol.for('agentlib.error');

/** Options shared by every agentlib error. */
export interface AgentlibErrorOptions {
  /** The underlying error, kept for debugging. */
  cause?: unknown;
}

/**
 * Base class of every error agentlib throws. Each subclass carries a `Symbol.for` marker so that
 * `isInstance` works across duplicated copies of the package (where `instanceof` fails).
 */
export class AgentlibError extends Error {
  private readonly [baseMarker] = true;
  override readonly name: string = 'AgentlibError';

  constructor(message: string, options: AgentlibErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }

  /** True when `error` is any agentlib error. */
  static isInstance(error: unknown): error is AgentlibError {
    return hasMarker(error, baseMarker);
  }
}

/** True when `error` is an object carrying `marker` (set by an agentlib error constructor). */
export function hasMarker(error: unknown, marker: symbol): boolean {
  return typeof error === 'object' && error !== null && marker in error;
}
