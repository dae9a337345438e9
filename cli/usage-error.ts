import { AgentlibError, hasMarker, type AgentlibErrorOptions } from '../lib/core/errors/agentlib-error.js';

const marker = Symbol.for('agentlib.error.UsageError');

/** The command line is wrong: unknown command or option, missing argument (exit code 2). */
export class UsageError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'UsageError';
  /** A did-you-mean candidate, when one applies. */
  readonly suggestion: string | undefined;

  constructor(message: string, fields: { suggestion?: string } & AgentlibErrorOptions = {}) {
    super(message, fields);
    this.suggestion = fields.suggestion;
  }

  /** True when `error` is a UsageError (works across package copies). */
  static override isInstance(error: unknown): error is UsageError {
    return hasMarker(error, marker);
  }
}
