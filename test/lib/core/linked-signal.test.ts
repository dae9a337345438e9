import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { linkSignals } from '../../../lib/core/linked-signal.js';

test('a linked signal follows its sources and detaches on dispose', () => {
  const a = new AbortController();
  const b = new AbortController();
  const linked = linkSignals([a.signal, undefined, b.signal]);
  assert.equal(getEventListeners(a.signal, 'abort').length, 1);
  b.abort('stop');
  assert.equal(linked.signal.aborted, true);
  assert.equal(linked.signal.reason, 'stop');
  assert.equal(getEventListeners(a.signal, 'abort').length, 0, 'aborting detaches from the other sources');
  const again = linkSignals([a.signal]);
  again.dispose();
  assert.equal(getEventListeners(a.signal, 'abort').length, 0);
  again.abort('own');
  assert.equal(a.signal.aborted, false, 'aborting the link does not abort a source');
  assert.equal(linkSignals([b.signal]).signal.aborted, true, 'an already aborted source aborts at once');
});

test('the shared never-aborted signal is recognisable', async () => {
  const { NEVER_ABORTED, isNeverAborted } = await import('../../../lib/core/linked-signal.js');
  assert.equal(isNeverAborted(NEVER_ABORTED), true);
  assert.equal(isNeverAborted(new AbortController().signal), false);
  assert.equal(NEVER_ABORTED.aborted, false);
});
