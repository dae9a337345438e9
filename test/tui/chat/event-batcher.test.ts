import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentEvent } from '../../../lib/events/types.js';
import { EventBatcher } from '../../../tui/chat/event-batcher.js';
import { ev, virtualClock } from './helpers.js';


test('1000 deltas over 1 s are flushed at most ~30 times, merged, nothing lost', () => {
  const clock = virtualClock(0);
  const flushes: AgentEvent[][] = [];
  const batcher = new EventBatcher((events) => flushes.push(events), { clock, intervalMs: 33 });
  for (let i = 0; i < 1000; i++) {
    batcher.push(ev('text-delta', { iteration: 1, text: 'x' }));
    clock.advance(1);
  }
  clock.advance(100);
  assert.ok(flushes.length <= 32, `${flushes.length} flushes`);
  assert.ok(flushes.length >= 25, `${flushes.length} flushes`);
  const text = flushes.flat().map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
  assert.equal(text.length, 1000);
  // consecutive deltas are merged into one event per flush
  assert.ok(flushes.every((batch) => batch.length === 1));
});

test('the first event after a quiet period is flushed at once; other events keep their order', () => {
  const clock = virtualClock(0);
  const flushes: AgentEvent[][] = [];
  const batcher = new EventBatcher((events) => flushes.push(events), { clock, intervalMs: 33 });
  batcher.push(ev('iteration-start', { iteration: 1 }));
  assert.equal(flushes.length, 1);
  batcher.push(ev('text-delta', { iteration: 1, text: 'a' }));
  batcher.push(ev('tool-start', { callId: 'c', toolName: 't', args: {} }));
  batcher.push(ev('text-delta', { iteration: 1, text: 'b' }));
  assert.equal(flushes.length, 1);
  assert.equal(batcher.pending, 3);
  clock.advance(40);
  assert.deepEqual(flushes[1]?.map((e) => e.type), ['text-delta', 'tool-start', 'text-delta']);
  batcher.push(ev('text-delta', { iteration: 1, text: 'c' }));
  batcher.flush();
  assert.equal(flushes.length, 3);
  batcher.dispose();
});
