import type { AgentObserver } from '../events/observer.js';

/**
 * What a running eval attempt waits on, from its run's own events:
 * - `model`: a model call is in flight (`llm-start` until `llm-end`);
 * - `retry`: a model call failed and the provider waits before trying again, until `untilMs`
 *   (clock of the suite), then the call is in flight again (`attempt` is the retry's number);
 * - `tool`: tools are running (`tool-start` until `tool-end` / `tool-error`), by name;
 * - `agent`: between those (the loop itself, guardrails, memory);
 * - `checks`: the run is over and its assertions (judges included) are being checked.
 */
export type EvalWait =
  | { on: 'model'; model: string }
  | { on: 'retry'; model: string; attempt: number; untilMs: number }
  | { on: 'tool'; tools: readonly string[] }
  | { on: 'agent' }
  | { on: 'checks' };

/**
 * A run observer (RunOptions.observers) that reports each change of what the run waits on.
 * Parallel tool calls are reported together (`tools` lists every running tool's name once).
 */
export function waitObserver(report: (wait: EvalWait) => void, now: () => number): AgentObserver {
  const running = new Map<string, string>();
  let model = '';
  const toolsChanged = (): void => report(running.size === 0 ? { on: 'agent' } : { on: 'tool', tools: [...new Set(running.values())] });
  return {
    name: 'eval-wait',
    onLlmStart: (event) => {
      model = event.model;
      report({ on: 'model', model });
    },
    onLlmRetry: (event) => report({ on: 'retry', model, attempt: event.attempt, untilMs: now() + event.delayMs }),
    onLlmEnd: () => report({ on: 'agent' }),
    onToolStart: (event) => {
      running.set(event.callId, event.toolName);
      toolsChanged();
    },
    onToolEnd: (event) => {
      running.delete(event.callId);
      toolsChanged();
    },
    onToolError: (event) => {
      running.delete(event.callId);
      toolsChanged();
    },
  };
}

/**
 * The live view's words for a wait: `model gpt-4o-mini`, `tool search_kb`, `retry backoff 1.5 s
 * (retry 2, gpt-4o-mini)` (then `model gpt-4o-mini (retry 2)` once the backoff is over), `agent`,
 * `checks`.
 */
export function describeWait(wait: EvalWait, now: number): string {
  switch (wait.on) {
    case 'model':
      return `model ${wait.model}`;
    case 'retry': {
      const left = wait.untilMs - now;
      return left > 0 ? `retry backoff ${(left / 1000).toFixed(1)} s (retry ${wait.attempt}, ${wait.model})` : `model ${wait.model} (retry ${wait.attempt})`;
    }
    case 'tool':
      return `${wait.tools.length === 1 ? 'tool' : 'tools'} ${wait.tools.join(', ')}`;
    case 'agent':
      return 'agent';
    case 'checks':
      return 'checks';
  }
}
