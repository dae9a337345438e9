import type { AgentEvent } from './types.js';

/**
 * Called when an observer (or a listener) throws or rejects; the run is never affected. `method` is
 * the observer method that failed (`onToolStart`, `onEvent`; `listener` for bus listeners).
 */
export type ObserverErrorHandler = (error: unknown, observerName: string, event: AgentEvent, method?: string) => void;

const warned = new Set<string>();

/**
 * The default ObserverErrorHandler: one `process.emitWarning` per observer name and method per
 * process (a broken observer called for every event does not flood stderr).
 */
export const warnObserverError: ObserverErrorHandler = (error, observerName, event, method = event.type) => {
  const key = `${observerName}\u0000${method}`;
  if (warned.has(key)) return;
  warned.add(key);
  const message = error instanceof Error ? error.message : String(error);
  process.emitWarning(
    `observer "${observerName}" failed in ${method} on "${event.type}": ${message} (the run continues; later failures of ${observerName}.${method} are not reported)`,
    { type: 'AgentObserverWarning', code: 'AGENTLIB_OBSERVER_ERROR' },
  );
};
