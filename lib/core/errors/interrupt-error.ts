import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.InterruptError');

/** Why an interrupt cannot be resumed. */
export type InterruptErrorReason = 'unknown' | 'used';

/** `resume` was given an interruptId that no checkpoint holds (`unknown`) or that was already answered (`used`). */
export class InterruptError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'InterruptError';
  readonly interruptId: string;
  readonly reason: InterruptErrorReason;

  constructor(interruptId: string, reason: InterruptErrorReason, options: AgentlibErrorOptions = {}) {
    super(
      reason === 'used'
        ? `interrupt "${interruptId}" was already answered; the run went on (see its thread's latest checkpoint)`
        : `no pending interrupt "${interruptId}" in the checkpoint store (is it the store the run used?)`,
      options,
    );
    this.interruptId = interruptId;
    this.reason = reason;
  }

  /** True when `error` is an InterruptError (works across package copies). */
  static override isInstance(error: unknown): error is InterruptError {
    return hasMarker(error, marker);
  }
}
