import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import type { AgentObserver } from '../../../lib/events/observer.js';
import type { AgentEvent } from '../../../lib/events/types.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { TraceRecorder } from '../../../lib/trace/recorder.js';
import { testRuntime } from '../../support/agent-harness.js';

// The per-chunk path of a streamed run (execute-run.ts `emitDelta`) hands text and reasoning deltas
// to the stream and to the observers that want them, and skips the trace recorder.

describe('streamed deltas: the per-chunk fast path', () => {
  // A run's recorder only ever gets that run's own events from it (runId = its own), so this is the
  // case that matters; a nested run's delta does register the nested run (not relevant here).
  test("a run's trace recorder records nothing for its own text and reasoning deltas (so the fast path may skip it)", () => {
    const recorder = new TraceRecorder({ runId: 'run_1' });
    recorder.handle({ type: 'run-start', runId: 'run_1', timestamp: 1, agentName: 'a', input: 'x', provider: 'p', model: 'm' });
    recorder.handle({ type: 'llm-start', runId: 'run_1', timestamp: 2, iteration: 1, provider: 'p', model: 'm', messageCount: 1, toolCount: 0 });
    const before = JSON.stringify(recorder.trace.toJSON());
    recorder.handle({ type: 'text-delta', runId: 'run_1', timestamp: 3, iteration: 1, text: 'hello' });
    recorder.handle({ type: 'reasoning-delta', runId: 'run_1', timestamp: 4, iteration: 1, text: 'think' });
    assert.equal(JSON.stringify(recorder.trace.toJSON()), before);
  });

  test('deltas reach observers that want them, including an observer added mid-run', async () => {
    const provider = new ScriptedProvider({ replies: [{ chunks: ['a', 'b', 'c'] }, { chunks: ['<think>r</think>d', 'e', 'f', 'g'] }] });
    const late: string[] = [];
    const lateObserver: AgentObserver = { onTextDelta: (event) => void late.push(event.text) };
    let adding = false;
    const agent = new Agent({
      provider,
      runtime: testRuntime(),
      // No delta method at first: the first run's deltas go to the stream only.
      observers: [{ onLlmStart: () => void (adding && agent.addObserver(lateObserver)) }],
    });
    const collect = async (): Promise<string[]> => {
      const stream = agent.stream('x');
      const texts: string[] = [];
      for await (const event of stream) if (event.type === 'text-delta') texts.push(event.text);
      await stream.result;
      return texts;
    };
    assert.deepEqual(await collect(), ['a', 'b', 'c']);
    assert.deepEqual(late, []);
    adding = true;
    const all: AgentEvent[] = [];
    agent.addObserver({ onEvent: (event) => void all.push(event) });
    assert.deepEqual(await collect(), ['d', 'e', 'f', 'g']);
    assert.deepEqual(late, ['d', 'e', 'f', 'g'], 'added at llm-start of the second run');
    assert.deepEqual(
      all.filter((e) => e.type === 'text-delta' || e.type === 'reasoning-delta').map((e) => `${e.type}:${'text' in e ? e.text : ''}`),
      ['reasoning-delta:r', 'text-delta:d', 'text-delta:e', 'text-delta:f', 'text-delta:g'],
    );
    const delta = all.find((e) => e.type === 'text-delta');
    assert.deepEqual(Object.keys(delta ?? {}), ['type', 'runId', 'timestamp', 'iteration', 'text']);
  });
});
