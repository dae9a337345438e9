import { linkSignals, type LinkedSignal } from '../core/linked-signal.js';

/**
 * The signal of one provider call: follows the caller's signal and aborts on its own when the call
 * stays silent for `timeoutMs` (no response headers, or no stream chunk). `touch()` restarts the
 * silence window; `timedOut` tells a timeout apart from a caller abort.
 */
export class CallControl {
  readonly signal: AbortSignal;
  private readonly linked: LinkedSignal;
  private timer: NodeJS.Timeout | undefined;
  private expired = false;
  private lastActivity = Date.now();

  constructor(
    private readonly caller: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    this.linked = linkSignals([caller]);
    this.signal = this.linked.signal;
    if (Number.isFinite(timeoutMs) && timeoutMs > 0) this.arm(timeoutMs);
  }

  /** True when the caller's own signal aborted (not our timer). */
  get callerAborted(): boolean {
    return this.caller?.aborted === true;
  }

  /** True when the silence timer fired. */
  get timedOut(): boolean {
    return this.expired;
  }

  /**
   * Restarts the silence window. Hot path (every stream chunk): it only records the time; the one
   * timer checks it when it fires and re-arms for the remaining window.
   */
  touch(): void {
    this.lastActivity = Date.now();
  }

  private arm(delayMs: number): void {
    this.timer = setTimeout(() => {
      const idle = Date.now() - this.lastActivity;
      if (idle < this.timeoutMs) {
        this.arm(this.timeoutMs - idle);
        return;
      }
      this.expired = true;
      this.linked.abort(new Error(`no response within ${this.timeoutMs} ms`));
    }, delayMs);
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
