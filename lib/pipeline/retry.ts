import { sleep as realSleep, type Sleep } from '../core/sleep.js';
import { Step } from './step.js';
import type { StepRun } from './step-context.js';

/** Options of {@link retry}. */
export interface RetryOptions {
  /** Wait before the first retry, in ms; doubles after each (default 100). */
  backoffMs?: number;
  /** Upper bound of one wait, in ms (default 10,000). */
  maxBackoffMs?: number;
  /** Which errors are worth another attempt (default: all but cancellation). */
  retryOn?: (error: unknown) => boolean;
  /** The wait function (a virtual clock in tests). */
  sleep?: Sleep;
}

/**
 * `step`, tried up to `attempts` times in all: after a failure it waits (exponential backoff,
 * cancellable by the run's signal) and runs again on the same input; the last failure is thrown.
 * Cancellation is never retried.
 */
export function retry<I, O>(step: Step<I, O>, attempts: number, options: RetryOptions = {}): Step<I, O> {
  if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError(`retry: attempts must be an integer ≥ 1, got ${attempts}`);
  const wait = options.sleep ?? realSleep;
  const first = options.backoffMs ?? 100;
  const cap = options.maxBackoffMs ?? 10_000;
  const retryOn = options.retryOn ?? (() => true);
  return new Step<I, O>(`retry(${step.name}, ${attempts})`, async (input, context) => {
    const run = context as StepRun;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await step.execute(input, run);
      } catch (error) {
        if (attempt >= attempts || run.signal.aborted || !retryOn(error)) throw error;
        await wait(Math.min(first * 2 ** (attempt - 1), cap), run.signal);
      }
    }
  });
}
