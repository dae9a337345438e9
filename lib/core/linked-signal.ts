/** A signal that aborts when any of its sources does; `dispose()` detaches it from them. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Aborts the linked signal (not the sources). */
  abort(reason?: unknown): void;
  /** Removes the listeners added to the sources. Call it when the linked signal's work is done. */
  dispose(): void;
}

/**
 * A signal that is never aborted, shared by runs that have nothing that could cancel them (no
 * token, no run signal, not a stream): creating an AbortController per run or per tool call is
 * measurable on hot paths. Since it can never fire, it keeps no listeners (adding one is a no-op),
 * so tools, SDKs and libraries that forget to remove theirs cannot make it grow.
 */
export const NEVER_ABORTED: AbortSignal = neverAborted();

function neverAborted(): AbortSignal {
  const signal = new AbortController().signal;
  const ignore = (): void => undefined;
  Object.defineProperties(signal, {
    addEventListener: { value: ignore },
    removeEventListener: { value: ignore },
    onabort: { get: () => null, set: ignore },
  });
  return signal;
}

/** True for the shared never-aborted signal. */
export function isNeverAborted(signal: AbortSignal): boolean {
  return signal === NEVER_ABORTED;
}

/** Listener options of a link's source listeners (one object: Node reads it on every add). */
const ONCE: Readonly<{ once: true }> = Object.freeze({ once: true });

/** Signals handed over by their owner (see {@link handOverSignal}), with their controllers. */
const handedOver = new WeakMap<AbortSignal, AbortController>();

/**
 * Hands `controller`'s signal over to the one piece of work it was made for: the first
 * `linkSignals` that gets it as its only source uses it as the linked signal itself (the link's
 * `abort` aborts `controller`) instead of making another AbortController and listener. For owners
 * that make a signal per unit of work and pass it to nothing else, such as the HTTP server's
 * per-request signal: creating AbortSignals is measurable on hot paths. Returns the signal.
 */
export function handOverSignal(controller: AbortController): AbortSignal {
  handedOver.set(controller.signal, controller);
  return controller.signal;
}

/** Options of {@link linkSignals}. */
export interface LinkSignalsOptions {
  /**
   * The caller aborts the link itself (`LinkedSignal.abort`) besides its sources: the link is
   * always a signal of its own, never a handed-over source (whose owner's abort that would be).
   */
  ownAbort?: boolean;
}

/**
 * Links a new AbortSignal to `sources`. Unlike `AbortSignal.any`, it leaves nothing behind on
 * long-lived sources (a CancellationToken used for thousands of runs) once disposed: Node 20's
 * `AbortSignal.any` keeps a dependant entry on every source for good. A lone handed-over source
 * ({@link handOverSignal}) is used as it is, once (unless `ownAbort`).
 */
export function linkSignals(sources: readonly (AbortSignal | undefined)[], options?: LinkSignalsOptions): LinkedSignal {
  const only = options?.ownAbort === true ? undefined : soleSource(sources);
  const owner = only === undefined ? undefined : handedOver.get(only);
  if (only !== undefined && owner !== undefined) {
    handedOver.delete(only);
    return { signal: only, abort: (reason) => owner.abort(reason), dispose: () => undefined };
  }
  const controller = new AbortController();
  const detach: (() => void)[] = [];
  const dispose = (): void => {
    for (const remove of detach.splice(0)) remove();
  };
  for (const source of sources) {
    if (!source) continue;
    if (source.aborted) {
      controller.abort(source.reason);
      break;
    }
    const onAbort = (): void => {
      controller.abort(source.reason);
      dispose();
    };
    source.addEventListener('abort', onAbort, ONCE);
    detach.push(() => source.removeEventListener('abort', onAbort));
  }
  if (controller.signal.aborted) dispose();
  return { signal: controller.signal, abort: (reason) => controller.abort(reason), dispose };
}

/** The one defined signal of `sources`, if exactly one is defined. */
function soleSource(sources: readonly (AbortSignal | undefined)[]): AbortSignal | undefined {
  let only: AbortSignal | undefined;
  for (const source of sources) {
    if (source === undefined) continue;
    if (only !== undefined) return undefined;
    only = source;
  }
  return only;
}
