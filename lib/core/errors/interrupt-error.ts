import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.InterruptError');

/** Why an interrupt cannot be resumed. */
export type InterruptErrorReason = 'unknown' | 'used' | 'claimed';

/**
 * `resume` was given an interruptId that no checkpoint holds (`unknown`), that was already
 * answered (`used`), or that another resume is answering right now (`claimed`, with `claim`).
 */
export class InterruptError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'InterruptError';
  readonly interruptId: string;
  readonly reason: InterruptErrorReason;
  /** With `claimed`: which run holds the interrupt, and since when. */
  readonly claim?: { owner: string; claimedAt: string };

  constructor(interruptId: string, reason: InterruptErrorReason, options: AgentlibErrorOptions & { claim?: { owner: string; claimedAt: string } } = {}) {
    super(message(interruptId, reason, options.claim), options);
    this.interruptId = interruptId;
    this.reason = reason;
    if (options.claim) this.claim = { owner: options.claim.owner, claimedAt: options.claim.claimedAt };
  }

  /** True when `error` is an InterruptError (works across package copies). */
  static override isInstance(error: unknown): error is InterruptError {
    return hasMarker(error, marker);
  }
}

function message(interruptId: string, reason: InterruptErrorReason, claim: { owner: string; claimedAt: string } | undefined): string {
  if (reason === 'used') return `interrupt "${interruptId}" was already answered; the run went on (see its thread's latest checkpoint)`;
  if (reason === 'claimed') {
    return `interrupt "${interruptId}" is being answered by run ${claim?.owner ?? '?'} (since ${claim?.claimedAt ?? '?'}); if that process died, resume with takeOverClaim (agentlib graph resume --take-over)`;
  }
  return `no pending interrupt "${interruptId}" in the checkpoint store (is it the store the run used?)`;
}
