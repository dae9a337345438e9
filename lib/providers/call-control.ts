import { linkSignals, type LinkedSignal } from '../core/linked-signal.js';
import { describeTimeout, isLimit, MAX_TIMER_MS, type CallTimeouts, type TimeoutPhase } from './call-timeouts.js';

/**
 * The signal of one provider call: follows the caller's signal and aborts on its own when a limit
 * of `CallTimeouts` runs out: the total, the wait for the first byte of the reply, or a silence
 * between two pieces of it. `touch()` reports bytes (the first one ends the first-byte wait);
 * `timedOut` tells a timeout apart from a caller abort, `timeoutPhase` which limit it was.
 *
 * One timer per call: `touch()` only records the time, the timer checks it when it fires and
 * re-arms for what is left (the first `touch()` re-arms once, as the idle window may be shorter).
 */
export class CallControl {
  readonly signal: AbortSignal;
  readonly timeouts: CallTimeouts;
  private readonly linked: LinkedSignal;
  private timer: NodeJS.Timeout | undefined;
  private phase: TimeoutPhase | undefined;
  private readonly started = Date.now();
  /** When the last byte came; undefined before the first. */
  private lastActivity: number | undefined;
  private disposed = false;

  constructor(
    private readonly caller: AbortSignal | undefined,
    timeouts: CallTimeouts | number,
  ) {
    this.timeouts = typeof timeouts === 'number' ? { totalMs: timeouts, firstByteMs: 0, idleMs: 0 } : timeouts;
    this.linked = linkSignals([caller]);
    this.signal = this.linked.signal;
    this.arm();
  }

  /** True when the caller's own signal aborted (not our timer). */
  get callerAborted(): boolean {
    return this.caller?.aborted === true;
  }

  /** True when a limit ran out. */
  get timedOut(): boolean {
    return this.phase !== undefined;
  }

  /** Which limit ran out, if one did. */
  get timeoutPhase(): TimeoutPhase | undefined {
    return this.phase;
  }

  /** The timeout as words for the error (which limit, how long, the setting). */
  describeTimeout(): string {
    return describeTimeout(this.phase ?? 'total', this.timeouts);
  }

  /** Bytes arrived. Hot path (every stream chunk): it records the time only, except the first time. */
  touch(): void {
    const first = this.lastActivity === undefined;
    this.lastActivity = Date.now();
    if (first && !this.disposed) {
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.arm();
    }
  }

  /** The time the next limit runs out, and which one (undefined: no limit). */
  private next(): { at: number; phase: TimeoutPhase } | undefined {
    const { totalMs, firstByteMs, idleMs } = this.timeouts;
    let found: { at: number; phase: TimeoutPhase } | undefined;
    const consider = (at: number, phase: TimeoutPhase): void => {
      if (found === undefined || at < found.at) found = { at, phase };
    };
    if (isLimit(totalMs)) consider(this.started + totalMs, 'total');
    if (this.lastActivity === undefined) {
      if (isLimit(firstByteMs)) consider(this.started + firstByteMs, 'first-byte');
    } else if (isLimit(idleMs)) {
      consider(this.lastActivity + idleMs, 'idle');
    }
    return found;
  }

  private arm(): void {
    this.timer = undefined;
    if (this.phase !== undefined || this.signal.aborted) return;
    const next = this.next();
    if (next === undefined) return;
    const delay = next.at - Date.now();
    if (delay <= 0) {
      this.phase = next.phase;
      this.linked.abort(new Error(this.describeTimeout()));
      return;
    }
    this.timer = setTimeout(() => this.arm(), Math.min(delay, MAX_TIMER_MS));
  }

  /** Stops the call (a consumer that stopped reading a stream). */
  abort(): void {
    this.linked.abort(new Error('call abandoned'));
  }

  /** Clears the timer and detaches from the caller's signal. */
  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.linked.dispose();
  }
}
