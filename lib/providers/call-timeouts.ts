/** The longest delay a Node timer takes (a larger one fires at once). */
export const MAX_TIMER_MS = 2_147_483_647;

/** Default wait for the first byte of a streamed reply (decision 0009). */
export const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 60_000;

/** Default longest silence between two pieces of a streamed reply (decision 0009). */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/**
 * The time limits every built-in adapter takes (docs/providers.md, "Timeouts"). Each is in
 * milliseconds; 0 (or less) turns that limit off.
 */
export interface ProviderTimeoutOptions {
  /**
   * Total time one call may take (default 600000): a whole `complete` / `embed` call, body
   * included, and a whole `stream`, however steadily it sends.
   */
  timeoutMs?: number;
  /**
   * `stream` only: the longest wait from sending the request to the first byte of the reply's body
   * (default 60000). A `complete` call sends nothing until the whole reply is ready, so only
   * `timeoutMs` bounds it.
   */
  firstByteTimeoutMs?: number;
  /** `stream` only: the longest silence between two pieces of the reply's body (default 60000). */
  idleTimeoutMs?: number;
}

/** The resolved limits of one call (ms; 0 or less, or not finite: off). */
export interface CallTimeouts {
  totalMs: number;
  firstByteMs: number;
  idleMs: number;
}

/** Which limit ended a call. */
export type TimeoutPhase = 'total' | 'first-byte' | 'idle';

/** The limits of an adapter's `stream` calls, from its options and its default total. */
export function streamTimeouts(options: ProviderTimeoutOptions, defaultTotalMs: number): CallTimeouts {
  return {
    totalMs: options.timeoutMs ?? defaultTotalMs,
    firstByteMs: options.firstByteTimeoutMs ?? DEFAULT_FIRST_BYTE_TIMEOUT_MS,
    idleMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
  };
}

/** The limits of a `complete` / `embed` call: the total only (nothing arrives before the whole reply). */
export function wholeCallTimeouts(timeouts: CallTimeouts): CallTimeouts {
  return { totalMs: timeouts.totalMs, firstByteMs: 0, idleMs: 0 };
}

/**
 * The timeout handed to an SDK with each request (it bounds the wait for the headers; the
 * CallControl bounds the rest): the total, or with no total the longest a timer allows.
 */
export function sdkTimeout(totalMs: number): number {
  return isLimit(totalMs) ? Math.min(totalMs, MAX_TIMER_MS) : MAX_TIMER_MS;
}

/** Whether a limit is on. */
export function isLimit(ms: number): boolean {
  return ms > 0 && Number.isFinite(ms);
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** What a timeout error says: which limit, how long, and which setting raises it. */
export function describeTimeout(phase: TimeoutPhase, timeouts: CallTimeouts): string {
  switch (phase) {
    case 'first-byte':
      return `no response within ${seconds(timeouts.firstByteMs)} (first-byte timeout: first_byte_timeout_ms, --timeout)`;
    case 'idle':
      return `the stream went silent for ${seconds(timeouts.idleMs)} (idle timeout: idle_timeout_ms, --timeout)`;
    default:
      return `the call took longer than ${seconds(timeouts.totalMs)} (total timeout: timeout_ms)`;
  }
}
