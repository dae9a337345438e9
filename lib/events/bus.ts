import { AGENT_EVENT_TYPES, observerMethodName } from './event-types.js';
import { observerName, type AgentObserver, type ObserverResult } from './observer.js';
import { warnObserverError, type ObserverErrorHandler } from './observer-error.js';
import type { AgentEvent, AgentEventType } from './types.js';

/** Receives every event synchronously (streams, trace recorders). */
export type EventListener = (event: AgentEvent) => void;

/** Options of an EventBus. */
export interface EventBusOptions {
  observers?: readonly AgentObserver[];
  /**
   * Called when an observer or listener throws or rejects. Default: `process.emitWarning` once per
   * observer and event type. Errors thrown by this handler are ignored.
   */
  onObserverError?: ObserverErrorHandler;
}

interface Handler {
  readonly observer: AgentObserver;
  readonly name: string;
  readonly method: string;
  readonly fn: (event: AgentEvent) => ObserverResult;
  readonly blocking: boolean;
}

const noop = (): void => undefined;

/**
 * Delivers events to listeners and observers. `emit` stays synchronous unless a blocking observer
 * returned a promise, so callers write `const p = bus.emit(e); if (p) await p;`. Observer methods are
 * resolved once per observer (a handler table by event type, rebuilt when observers change); an
 * emit with no interested observer allocates nothing. Observer failures are isolated and reported.
 */
export class EventBus {
  readonly #observers: AgentObserver[] = [];
  readonly #listeners: EventListener[] = [];
  readonly #pending = new Set<Promise<void>>();
  readonly #onError: ObserverErrorHandler;
  /** Handlers by event type; undefined when observers changed since the last emit. */
  #handlers: ReadonlyMap<AgentEventType, readonly Handler[]> | undefined;

  constructor(options: EventBusOptions = {}) {
    this.#onError = options.onObserverError ?? warnObserverError;
    for (const observer of options.observers ?? []) this.#observers.push(observer);
  }

  /** The registered observers, in call order. */
  get observers(): readonly AgentObserver[] {
    return this.#observers;
  }

  /** Registers an observer (its methods are looked up at the next emit, then cached). */
  addObserver(observer: AgentObserver): void {
    this.#observers.push(observer);
    this.#handlers = undefined;
  }

  /** Unregisters an observer; returns whether it was registered. */
  removeObserver(observer: AgentObserver): boolean {
    const index = this.#observers.indexOf(observer);
    if (index === -1) return false;
    this.#observers.splice(index, 1);
    this.#handlers = undefined;
    return true;
  }

  /** Adds a listener that gets every event synchronously, before observers; returns an unsubscribe. */
  subscribe(listener: EventListener): () => void {
    this.#listeners.push(listener);
    return () => {
      const index = this.#listeners.indexOf(listener);
      if (index !== -1) this.#listeners.splice(index, 1);
    };
  }

  /**
   * Whether an event of `type` would reach anyone: a listener, or an observer with that event's
   * method or `onEvent`. Lets a hot path (streamed text deltas) skip `emit` when nobody listens;
   * it reflects observers and listeners added or removed since, like `emit`.
   */
  hasReceivers(type: AgentEventType): boolean {
    return this.#listeners.length > 0 || (this.#handlers ??= this.#build()).has(type);
  }

  /**
   * Delivers one event. Returns a promise only when a blocking observer returned one (it resolves
   * when they settle, never rejects); otherwise returns undefined.
   */
  emit(event: AgentEvent): void | Promise<void> {
    const listeners = this.#listeners;
    for (let i = 0; i < listeners.length; i++) {
      try {
        (listeners[i] as EventListener)(event);
      } catch (error) {
        this.#report(error, 'listener', event, 'listener');
      }
    }
    const handlers = (this.#handlers ??= this.#build()).get(event.type);
    if (handlers === undefined) return undefined;
    let blocking: Promise<void>[] | undefined;
    for (let i = 0; i < handlers.length; i++) {
      const handler = handlers[i] as Handler;
      let result: unknown;
      try {
        result = handler.fn.call(handler.observer, event);
      } catch (error) {
        this.#report(error, handler.name, event, handler.method);
        continue;
      }
      if (!isThenable(result)) continue;
      const settled = Promise.resolve(result).then(noop, (error: unknown) => this.#report(error, handler.name, event, handler.method));
      if (handler.blocking) (blocking ??= []).push(settled);
      else this.#track(settled);
    }
    if (blocking === undefined) return undefined;
    return blocking.length === 1 ? blocking[0] : Promise.all(blocking).then(noop);
  }

  /** Waits for every fire-and-forget observer promise so far (and any started meanwhile). */
  async flush(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
  }

  #track(promise: Promise<void>): void {
    this.#pending.add(promise);
    void promise.then(() => this.#pending.delete(promise));
  }

  #report(error: unknown, name: string, event: AgentEvent, method: string): void {
    try {
      this.#onError(error, name, event, method);
    } catch {
      // A failing error handler must not break the run either.
    }
  }

  #build(): Map<AgentEventType, Handler[]> {
    const table = new Map<AgentEventType, Handler[]>();
    for (const observer of this.#observers) {
      const name = observerName(observer);
      const blocking = observer.blocking === true;
      const catchAll = observer.onEvent;
      for (const type of AGENT_EVENT_TYPES) {
        const method = observerMethodName(type);
        const fn = (observer as Record<string, unknown>)[method];
        const list: Handler[] = [];
        if (typeof fn === 'function') list.push({ observer, name, method, blocking, fn: fn as Handler['fn'] });
        if (typeof catchAll === 'function') list.push({ observer, name, method: 'onEvent', blocking, fn: catchAll });
        if (list.length === 0) continue;
        const existing = table.get(type);
        if (existing === undefined) table.set(type, list);
        else existing.push(...list);
      }
    }
    return table;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
