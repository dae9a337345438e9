import assert from 'node:assert/strict';
import { describe, mock, test } from 'node:test';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { EventBus } from '../../../lib/events/bus.js';
import { hooksToObserver, type HookFunction } from '../../../lib/events/hooks.js';
import type { AgentEvent } from '../../../lib/events/types.js';

const hook = (fn: (event: AgentEvent) => unknown): HookFunction => fn;
const toolStart: AgentEvent = { type: 'tool-start', runId: 'r', timestamp: 0, callId: 'c1', toolName: 'lookup', args: {} };
const runEnd: AgentEvent = {
  type: 'run-end', runId: 'r', timestamp: 0, agentName: 'a', status: 'completed', content: 'ok', iterations: 1, durationMs: 1,
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, totalCostUsd: 0, embeddingTokens: 0, totalEmbeddingCostUsd: 0, llmCalls: 0, toolUsage: {}, toolTokens: {} },
};

// Runs in its own process (node --test), so the first hooksToObserver call here is the process's first.
describe('hooksToObserver', () => {
  test('accepts spec, camelCase and event-type keys and warns about the deprecation once per process', () => {
    const warnings: Array<[string, unknown]> = [];
    const spy = mock.method(process, 'emitWarning', (warning: string, type?: unknown) => void warnings.push([warning, type]));
    const seen: string[] = [];
    try {
      const observer = hooksToObserver({
        on_tool_start: hook((e) => seen.push(`spec:${e.type}`)),
        onRunEnd: hook((e) => seen.push(`camel:${e.type}`)),
        'tool-start': hook((e) => seen.push(`type:${e.type}`)),
      });
      hooksToObserver({ on_error: hook(() => undefined) });
      const bus = new EventBus({ observers: [observer] });
      void bus.emit(toolStart);
      void bus.emit(runEnd);
    } finally {
      spy.mock.restore();
    }
    assert.deepEqual(seen, ['spec:tool-start', 'type:tool-start', 'camel:run-end']);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]![1], 'DeprecationWarning');
    assert.match(warnings[0]![0], /hooks.*deprecated.*observers/);
  });

  test('an unknown key throws with a did-you-mean suggestion', () => {
    assert.throws(
      () => hooksToObserver({ on_tool_strat: hook(() => undefined) }),
      (error: unknown) =>
        ConfigurationError.isInstance(error) && error.suggestion === 'on_tool_start' && /unknown hook "on_tool_strat"; did you mean "on_tool_start"/.test(error.message),
    );
    assert.throws(() => hooksToObserver({ onToolStart: 'nope' as unknown as HookFunction }), /must be a function/);
  });

  test('async hooks are awaited by flush and their failures are isolated', async () => {
    let done = false;
    const errors: unknown[] = [];
    const bus = new EventBus({
      onObserverError: (error) => void errors.push(error),
      observers: [hooksToObserver({ on_tool_start: hook(async () => { await new Promise((r) => setTimeout(r, 5)); done = true; }), on_run_end: hook(() => { throw new Error('bad hook'); }) })],
    });
    void bus.emit(toolStart);
    void bus.emit(runEnd);
    await bus.flush();
    assert.equal(done, true);
    assert.equal(errors.length, 1);
  });
});
