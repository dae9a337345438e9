import type { AgentEvent } from '../../lib/events/types.js';

/** The clock an EventBatcher uses (injected in tests). */
export interface BatchClock {
  now: () => number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout: (handle: unknown) => void;
}

export const realClock: BatchClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** ~30 fps. */
export const DEFAULT_FLUSH_INTERVAL_MS = 33;

/**
 * Collects AgentEvents and hands them to `flush` at most once per `intervalMs` (leading and
 * trailing edge), so a fast token stream causes ~30 state updates a second, not one per delta.
 * Consecutive text deltas of the same run and iteration are merged into one event.
 */
export class EventBatcher {
  readonly #flush: (events: AgentEvent[]) => void;
  readonly #intervalMs: number;
  readonly #clock: BatchClock;
  #pending: AgentEvent[] = [];
  #timer: unknown;
  #lastFlush = Number.NEGATIVE_INFINITY;

  constructor(flush: (events: AgentEvent[]) => void, options: { intervalMs?: number; clock?: BatchClock } = {}) {
    this.#flush = flush;
    this.#intervalMs = options.intervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
    this.#clock = options.clock ?? realClock;
  }

  /** Events waiting for the next flush. */
  get pending(): number {
    return this.#pending.length;
  }

  push(event: AgentEvent): void {
    const last = this.#pending.at(-1);
    if (event.type === 'text-delta' && last?.type === 'text-delta' && last.runId === event.runId && last.iteration === event.iteration) {
      this.#pending[this.#pending.length - 1] = { ...last, text: last.text + event.text };
    } else this.#pending.push(event);
    if (this.#timer !== undefined) return;
    const wait = this.#lastFlush + this.#intervalMs - this.#clock.now();
    if (wait <= 0) this.flush();
    else this.#timer = this.#clock.setTimeout(() => this.flush(), wait);
  }

  /** Hands over everything pending now (end of a run, before an approval is shown). */
  flush(): void {
    if (this.#timer !== undefined) {
      this.#clock.clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#pending.length === 0) return;
    const events = this.#pending;
    this.#pending = [];
    this.#lastFlush = this.#clock.now();
    this.#flush(events);
  }

  /** Drops pending events and the timer. */
  dispose(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending = [];
  }
}
