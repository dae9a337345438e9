import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.SessionNotFoundError');

/** A session store was asked for (or to branch from) a session that does not exist. */
export class SessionNotFoundError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'SessionNotFoundError';
  /** The missing session id. */
  readonly sessionId: string;

  constructor(fields: { sessionId: string } & AgentlibErrorOptions) {
    super(`Session not found: ${fields.sessionId}`, fields);
    this.sessionId = fields.sessionId;
  }

  /** True when `error` is a SessionNotFoundError (works across package copies). */
  static override isInstance(error: unknown): error is SessionNotFoundError {
    return hasMarker(error, marker);
  }
}
