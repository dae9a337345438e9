import { percentile } from '../trace/analytics/percentile.js';

/** How many recent durations a latency series keeps for its percentiles. */
export const LATENCY_WINDOW = 10_000;

/**
 * The most recent durations of one series (the last LATENCY_WINDOW, a ring buffer: a long-running
 * server's analytics stay bounded), with nearest-rank percentiles over them.
 */
export class LatencyWindow {
  readonly #values: number[] = [];
  #next = 0;

  add(ms: number): void {
    if (this.#values.length < LATENCY_WINDOW) this.#values.push(ms);
    else this.#values[this.#next] = ms;
    this.#next = (this.#next + 1) % LATENCY_WINDOW;
  }

  /** The p-th percentile (0–100) of the kept durations; 0 when there are none. */
  percentile(p: number): number {
    return percentile(this.#values, p);
  }
}
