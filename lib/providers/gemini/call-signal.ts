import { CallControl } from '../call-control.js';
import type { CallTimeouts } from '../call-timeouts.js';

/** A per-call abort signal combining the caller's signal with the adapter's timeout. */
export interface CallSignal {
  readonly signal: AbortSignal;
  /** True once the timeout fired (as opposed to the caller aborting). */
  readonly timedOut: boolean;
  /** Which limit ran out, as words for the error. */
  describeTimeout(): string;
  /** Restarts the timeout (a stream made progress). */
  touch(): void;
  /** Stops the timeout and aborts whatever is still in flight. */
  dispose(): void;
}

/**
 * Creates the signal of one call on the shared CallControl, with the call's limits. `dispose()`
 * also aborts, which releases the connection of a stream the consumer stopped
 * reading (harmless once the call finished).
 */
export function callSignal(outer: AbortSignal | undefined, timeouts: CallTimeouts): CallSignal {
  const control = new CallControl(outer, timeouts);
  return {
    signal: control.signal,
    get timedOut() {
      return control.timedOut;
    },
    describeTimeout: () => control.describeTimeout(),
    touch: () => control.touch(),
    dispose: () => {
      if (!control.signal.aborted) control.abort();
      control.dispose();
    },
  };
}
