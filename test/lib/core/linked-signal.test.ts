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

test('a handed-over signal is used as it is by the first link that has it as its only source', async () => {
  const { handOverSignal } = await import('../../../lib/core/linked-signal.js');
  const owner = new AbortController();
  const signal = handOverSignal(owner);
  assert.equal(signal, owner.signal);
  const first = linkSignals([undefined, signal, undefined]);
  assert.equal(first.signal, signal, 'no new signal');
  assert.equal(getEventListeners(signal, 'abort').length, 0, 'no listener on it');
  first.dispose();
  const second = linkSignals([signal]);
  assert.notEqual(second.signal, signal, 'handed over once: the next link is a link');
  second.abort('own');
  assert.equal(signal.aborted, false, 'aborting an ordinary link does not abort its source');
  second.dispose();
  owner.abort('stop');
  assert.equal(first.signal.aborted, true);
  assert.equal(first.signal.reason, 'stop');

  const other = new AbortController();
  const shared = handOverSignal(other);
  const two = linkSignals([shared, new AbortController().signal]);
  assert.notEqual(two.signal, shared, 'with another source it is linked as usual');
  two.dispose();
  const lone = linkSignals([shared]);
  assert.equal(lone.signal, shared, 'still handed over to the first lone link');
  lone.abort('by the link');
  assert.equal(other.signal.reason, 'by the link', "the link's abort aborts the owner's controller");
});
