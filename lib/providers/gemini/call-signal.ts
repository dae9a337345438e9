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

/** Creates the signal of one call; `timeoutMs` undefined or ≤ 0 means no timeout. */
export function callSignal(outer: AbortSignal | undefined, timeoutMs: number | undefined): CallSignal {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onAbort, { once: true });
  const arm = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    if (timeoutMs === undefined || timeoutMs <= 0 || controller.signal.aborted) return;
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
  };
  arm();
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    touch: arm,
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
      // Releases the connection of a stream the consumer stopped reading (harmless once finished).
      if (!controller.signal.aborted) controller.abort(new Error('call finished'));
    },
  };
}
