import type { AgentEventType, ObserverMethodName } from './types.js';

/** Every AgentEvent type, grouped as in docs/events.md. */
export const AGENT_EVENT_TYPES = [
  'run-start', 'run-end', 'error',
  'llm-start', 'llm-end', 'cache-hit', 'usage', 'llm-retry', 'model-switch',
  'tool-start', 'tool-end', 'tool-error', 'tool-chunk',
  'iteration-start', 'iteration-end',
  'batch-start', 'batch-end',
  'policy-decision', 'guardrail-triggered', 'coherence-blocked', 'output-screened',
  'structured-validate', 'provider-fallback',
  'memory-trim', 'session-load', 'session-save', 'memory-summarize', 'entity-extraction', 'kg-extraction',
  'retrieval-start', 'retrieval-end',
  'budget-exceeded', 'cost-warning', 'cancelled', 'prompt-compressed',
  'eval-start', 'eval-case-end', 'eval-end',
  'graph-start', 'graph-end', 'graph-error', 'node-start', 'node-end', 'graph-routing', 'graph-interrupt',
  'graph-resume', 'graph-checkpoint', 'parallel-start', 'parallel-end', 'stall-detected', 'loop-detected',
  'supervisor-replan',
  'step-start', 'step-end',
  'text-delta', 'reasoning-delta', 'approval-request', 'approval-response',
] as const satisfies readonly AgentEventType[];

// Compile-time check that the list is complete.
type Missing = Exclude<AgentEventType, (typeof AGENT_EVENT_TYPES)[number]>;
const complete: [Missing] extends [never] ? true : Missing = true;
void complete;

/** `tool-start` → `onToolStart`. */
export function observerMethodName<T extends AgentEventType>(type: T): ObserverMethodName<T> {
  const pascal = type
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  return `on${pascal}` as ObserverMethodName<T>;
}
