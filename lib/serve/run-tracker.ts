import { HttpError } from './http-error.js';
import { RunSlot } from './run-slot.js';

/** How a drain ended. */
export interface DrainResult {
  /** Requests that finished within the grace period. */
  finished: number;
  /** Requests aborted when the grace period ran out. */
  aborted: number;
}

/** Options of a {@link RunTracker}. */
export interface RunTrackerOptions {
  maxConcurrency: number;
  /** Deadline of a request, body to answer (504; 0 or Infinity: none). */
  timeoutMs: number;
  /** Deadline of reading a request's body (408; 0 or Infinity: none). Default: none. */
  bodyTimeoutMs?: number;
}

function finite(ms: number | undefined): number {
  return ms !== undefined && ms > 0 && Number.isFinite(ms) ? ms : Infinity;
}

/**
 * Admission control of the server: at most `maxConcurrency` requests run at once (429 past it),
 * none once draining (503), each under its own deadline (504) and its body under a deadline of its
 * own (408). `drain(graceMs)` lets in-flight runs finish, then aborts what is left.
 */
export class RunTracker {
  readonly #active = new Set<RunSlot>();
  readonly #max: number;
  readonly #timeoutMs: number;
  readonly #bodyTimeoutMs: number;
  readonly #sweepMs: number;
  #sweeper: NodeJS.Timeout | undefined;
  #draining = false;

  constructor(options: RunTrackerOptions) {
    this.#max = options.maxConcurrency;
    this.#timeoutMs = finite(options.timeoutMs);
    this.#bodyTimeoutMs = finite(options.bodyTimeoutMs);
    // Deadlines are checked by one sweep while requests run (no timer per request): at most a
    // quarter of the shorter timeout late (between 5 ms and 1 s).
    this.#sweepMs = Math.min(1000, Math.max(5, Math.floor(Math.min(this.#timeoutMs, this.#bodyTimeoutMs) / 4)));
  }

  /** Requests admitted and not yet settled. */
  get active(): number {
    return this.#active.size;
  }

  /** True once `drain` was called. */
  get draining(): boolean {
    return this.#draining;
  }

  /** Admits a request, or throws 503 (draining) / 429 (at capacity). */
  acquire(): RunSlot {
    if (this.#draining) throw shuttingDown();
    if (this.#active.size >= this.#max) {
      throw new HttpError(429, 'rate_limit_error', `The server is running ${this.#max} requests (its --max-concurrency); retry shortly`, { headers: { 'Retry-After': '1' } });
    }
    const now = performance.now();
    const slot = new RunSlot(now + this.#timeoutMs, now + this.#bodyTimeoutMs, this.#onRelease);
    this.#active.add(slot);
    if (this.#sweeper === undefined && (this.#timeoutMs !== Infinity || this.#bodyTimeoutMs !== Infinity)) {
      this.#sweeper = setInterval(this.#sweep, this.#sweepMs);
      this.#sweeper.unref();
    }
    return slot;
  }

  readonly #onRelease = (slot: RunSlot): void => {
    this.#active.delete(slot);
    if (this.#active.size === 0 && this.#sweeper !== undefined) {
      clearInterval(this.#sweeper);
      this.#sweeper = undefined;
    }
  };

  readonly #sweep = (): void => {
    const now = performance.now();
    for (const slot of this.#active) {
      if (now >= slot.deadline) slot.abort(new HttpError(504, 'timeout_error', `The request did not finish within ${this.#timeoutMs} ms`));
      else if (now >= slot.bodyDeadline) slot.abort(bodyTimedOut(this.#bodyTimeoutMs));
    }
  };

  /**
   * Stops admitting (new requests get 503), waits up to `graceMs` for in-flight requests, then
   * aborts the rest (their clients get a 503 or an SSE `error` event) and waits for them to settle
   * (at most `settleMs` more).
   */
  async drain(graceMs: number, settleMs = 2000): Promise<DrainResult> {
    this.#draining = true;
    const started = this.#active.size;
    if (started === 0) return { finished: 0, aborted: 0 };
    await waitAll([...this.#active], graceMs);
    const left = [...this.#active];
    for (const slot of left) slot.abort(shuttingDown());
    await waitAll(left, settleMs);
    return { finished: started - left.length, aborted: left.length };
  }
}

/** The body did not arrive in time: the connection cannot carry another request (its body is unread). */
function bodyTimedOut(ms: number): HttpError {
  return new HttpError(408, 'request_timeout_error', `The request body did not arrive within ${ms} ms`, { headers: { Connection: 'close' } });
}

function shuttingDown(): HttpError {
  return new HttpError(503, 'service_unavailable_error', 'The server is shutting down', { headers: { Connection: 'close' } });
}

async function waitAll(slots: readonly RunSlot[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(slots.map((slot) => slot.settled)),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
