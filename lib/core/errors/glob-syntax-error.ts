import { AgentlibError, hasMarker } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.GlobSyntaxError');

/** A glob pattern (tool policy, filters) is malformed. */
export class GlobSyntaxError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'GlobSyntaxError';
  /** The pattern that failed to compile. */
  readonly pattern: string;

  constructor(pattern: string, problem: string) {
    super(`invalid glob pattern "${pattern}": ${problem}`);
    this.pattern = pattern;
  }

  /** True when `error` is a GlobSyntaxError (works across package copies). */
  static override isInstance(error: unknown): error is GlobSyntaxError {
    return hasMarker(error, marker);
  }
}
