import { ConfigurationError } from '../core/errors/configuration-error.js';
import { closestMatch } from '../core/suggest.js';
import { AGENT_EVENT_TYPES, observerMethodName } from './event-types.js';
import type { AgentObserver, ObserverResult } from './observer.js';
import type { AgentEvent, AgentEventType } from './types.js';

/** A callback of the deprecated `hooks` dict; it is called with the event object. */
export type HookFunction = (...args: never[]) => unknown;

/** Every accepted hooks key (`on_tool_start`, `onToolStart`, `tool-start`) → its event type. */
const HOOK_KEYS: ReadonlyMap<string, AgentEventType> = new Map(
  AGENT_EVENT_TYPES.flatMap((type) => [
    [type, type],
    [observerMethodName(type), type],
    [`on_${type.replaceAll('-', '_')}`, type],
  ] as const),
);

let deprecationWarned = false;

/**
 * Wraps the spec's deprecated `hooks` dict as an observer. Keys may be spec names (`on_tool_start`),
 * observer method names (`onToolStart`) or event types (`tool-start`); each callback receives the
 * event object. An unknown key throws a ConfigurationError with a did-you-mean suggestion. Emits a
 * `DeprecationWarning` once per process.
 */
export function hooksToObserver(hooks: Readonly<Record<string, HookFunction>>): AgentObserver {
  const byType = new Map<AgentEventType, Array<(event: AgentEvent) => unknown>>();
  for (const [key, hook] of Object.entries(hooks)) {
    const type = HOOK_KEYS.get(key);
    if (type === undefined) {
      const suggestion = closestMatch(key, HOOK_KEYS.keys());
      throw new ConfigurationError(
        `unknown hook "${key}"` +
          (suggestion ? `; did you mean "${suggestion}"?` : '') +
          ' Hook keys are event callback names such as on_tool_start (see docs/events.md).',
        { key: `hooks.${key}`, ...(suggestion ? { suggestion } : {}) },
      );
    }
    if (typeof hook !== 'function') {
      throw new ConfigurationError(`hook "${key}" must be a function, got ${typeof hook}`, { key: `hooks.${key}` });
    }
    const list = byType.get(type) ?? [];
    list.push(hook as unknown as (event: AgentEvent) => unknown);
    byType.set(type, list);
  }
  if (!deprecationWarned) {
    deprecationWarned = true;
    process.emitWarning('agentlib: the `hooks` option is deprecated; pass `observers` instead (see docs/events.md).', 'DeprecationWarning');
  }
  const observer: AgentObserver & Record<string, unknown> = { name: 'hooks' };
  for (const [type, list] of byType) {
    observer[observerMethodName(type)] = (event: AgentEvent): ObserverResult => callHooks(list, event);
  }
  return observer;
}

function callHooks(list: ReadonlyArray<(event: AgentEvent) => unknown>, event: AgentEvent): ObserverResult {
  let pending: Promise<unknown>[] | undefined;
  for (const hook of list) {
    const result = hook(event);
    if (result instanceof Promise) (pending ??= []).push(result);
  }
  if (pending === undefined) return undefined;
  return Promise.all(pending).then(() => undefined);
}
