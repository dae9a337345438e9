import type { AgentEvent, AgentEventOf, AgentEventType, ObserverMethodName } from './types.js';

/** What an observer method may return: nothing, or a promise the bus tracks (or awaits when blocking). */
export type ObserverResult = void | Promise<void>;

/** One optional method per event type: `onToolStart(event: AgentEventOf<'tool-start'>)`, … */
export type AgentObserverMethods = {
  [T in AgentEventType as ObserverMethodName<T>]?: (event: AgentEventOf<T>) => ObserverResult;
};

/**
 * Receives the events of a run. Every method is optional; implement the ones you need, or `onEvent`
 * to get every event. Methods are looked up when the observer is registered with an EventBus.
 *
 * A method may return a promise. By default the run does not wait for it (fire-and-forget, awaited by
 * `EventBus.flush()`); with `blocking: true` the run awaits it before continuing. A method that
 * throws or rejects never breaks the run: the error is reported (see `EventBus`).
 */
export interface AgentObserver extends AgentObserverMethods {
  /** Called for every event, after the event's own method (when both exist). */
  onEvent?: (event: AgentEvent) => ObserverResult;
  /** Await this observer's promises inline instead of fire-and-forget. Default false. */
  blocking?: boolean;
  /** Name used when reporting this observer's errors. Defaults to its class name. */
  name?: string;
}

/** The name used for an observer in error reports: `name`, else its class name, else `observer`. */
export function observerName(observer: AgentObserver): string {
  if (typeof observer.name === 'string' && observer.name !== '') return observer.name;
  const ctor = (Object.getPrototypeOf(observer) as { constructor?: { name?: unknown } } | null)?.constructor;
  const className = ctor?.name;
  return typeof className === 'string' && className !== '' && className !== 'Object' ? className : 'observer';
}
