import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.SessionConflictError');

/**
 * A session write lost a race: the stored session changed since it was read (its revision is not
 * the one expected), or a branch target already exists. Nothing was written.
 */
export class SessionConflictError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'SessionConflictError';
  /** The session written. */
  readonly sessionId: string;
  /** The revision the write expected (undefined for a branch onto an existing session). */
  readonly expectedRevision: number | undefined;
  /** The revision found. */
  readonly actualRevision: number;

  constructor(message: string, fields: { sessionId: string; expectedRevision?: number; actualRevision: number } & AgentlibErrorOptions) {
    super(message, fields);
    this.sessionId = fields.sessionId;
    this.expectedRevision = fields.expectedRevision;
    this.actualRevision = fields.actualRevision;
  }

  /** True when `error` is a SessionConflictError (works across package copies). */
  static override isInstance(error: unknown): error is SessionConflictError {
    return hasMarker(error, marker);
  }
}
