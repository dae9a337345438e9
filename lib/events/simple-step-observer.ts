import type { AgentObserver, ObserverResult } from './observer.js';
import type { AgentEvent, AgentEventType } from './types.js';

/** The event's fields other than `type` and `runId` (timestamp, parentRunId, payload). */
export type StepEventData = Readonly<Record<string, unknown>>;

/** The one callback of a SimpleStepObserver. */
export type SimpleStepCallback = (eventName: AgentEventType, runId: string, data: StepEventData) => ObserverResult;

/**
 * Routes every event to one callback `(eventName, runId, data)`, where `eventName` is the event type
 * (`tool-start`) and `data` the event without `type` and `runId`.
 *
 * ```ts
 * new Agent({ provider, observers: [new SimpleStepObserver((name, runId, data) => console.log(name, data))] });
 * ```
 */
export class SimpleStepObserver implements AgentObserver {
  readonly name: string;
  readonly blocking: boolean;
  readonly #callback: SimpleStepCallback;

  constructor(callback: SimpleStepCallback, options: { name?: string; blocking?: boolean } = {}) {
    this.#callback = callback;
    this.name = options.name ?? 'SimpleStepObserver';
    this.blocking = options.blocking ?? false;
  }

  onEvent(event: AgentEvent): ObserverResult {
    const { type, runId, ...data } = event;
    return this.#callback(type, runId, data);
  }
}
