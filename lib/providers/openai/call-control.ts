import { linkSignals, type LinkedSignal } from '../../core/linked-signal.js';

/**
 * The signal of one provider call: follows the caller's signal and aborts on its own when the call
 * stays silent for `timeoutMs` (no response headers, or no stream chunk). `touch()` restarts the
 * silence timer; `timedOut` tells a timeout apart from a caller abort.
 */
export class CallControl {
  readonly signal: AbortSignal;
  private readonly linked: LinkedSignal;
  private timer: NodeJS.Timeout | undefined;
  private expired = false;

  constructor(
    private readonly caller: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    this.linked = linkSignals([caller]);
    this.signal = this.linked.signal;
    this.touch();
  }

  /** True when the caller's own signal aborted (not our timer). */
  get callerAborted(): boolean {
    return this.caller?.aborted === true;
  }

  /** True when the silence timer fired. */
  get timedOut(): boolean {
    return this.expired;
  }

  /** Restarts the silence timer. */
  touch(): void {
    if (this.timer) clearTimeout(this.timer);
    if (!Number.isFinite(this.timeoutMs) || this.timeoutMs <= 0) return;
    this.timer = setTimeout(() => {
      this.expired = true;
      this.linked.abort(new Error(`no response within ${this.timeoutMs} ms`));
    }, this.timeoutMs);
  }

  /** Stops the call (a consumer that stopped reading a stream). */
  abort(): void {
    this.linked.abort(new Error('call abandoned'));
  }

  /** Clears the timer and detaches from the caller's signal. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.linked.dispose();
  }
}
