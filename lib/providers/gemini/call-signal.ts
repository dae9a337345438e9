import { CallControl } from '../call-control.js';

/** A per-call abort signal combining the caller's signal with the adapter's timeout. */
export interface CallSignal {
  readonly signal: AbortSignal;
  /** True once the timeout fired (as opposed to the caller aborting). */
  readonly timedOut: boolean;
  /** Restarts the timeout (a stream made progress). */
  touch(): void;
  /** Stops the timeout and aborts whatever is still in flight. */
  dispose(): void;
}

/**
 * Creates the signal of one call on the shared CallControl; `timeoutMs` undefined or ≤ 0 means no
 * timeout. `dispose()` also aborts, which releases the connection of a stream the consumer stopped
 * reading (harmless once the call finished).
 */
export function callSignal(outer: AbortSignal | undefined, timeoutMs: number | undefined): CallSignal {
  const control = new CallControl(outer, timeoutMs ?? 0);
  return {
    signal: control.signal,
    get timedOut() {
      return control.timedOut;
    },
    touch: () => control.touch(),
    dispose: () => {
      if (!control.signal.aborted) control.abort();
      control.dispose();
    },
  };
}
