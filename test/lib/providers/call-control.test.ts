import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { CallControl } from '../../../lib/providers/call-control.js';
import { usingExperimental } from '../../support/capture-warnings.js';
import { DEFAULT_FIRST_BYTE_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT_MS, streamTimeouts, wholeCallTimeouts } from '../../../lib/providers/call-timeouts.js';

/** Virtual time: setTimeout and Date move only when the test ticks (Node 20's MockTimers warning captured). */
async function virtualClock(t: TestContext): Promise<(ms: number) => void> {
  await usingExperimental(/MockTimers/, () => t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 }));
  return (ms) => t.mock.timers.tick(ms);
}

/** The call is still running, and `tick(1)` later `phase` ends it with a message matching `text`. */
function expireNext(call: CallControl, tick: (ms: number) => void, phase: string, text: RegExp): void {
  assert.equal(call.signal.aborted, false);
  tick(1);
  assert.equal(call.timeoutPhase, phase);
  assert.match(call.describeTimeout(), text);
  call.dispose();
}

describe('CallControl: total, first-byte and idle limits on one timer', () => {
  test('defaults: 60 s to the first byte, 60 s between pieces, the adapter\'s total; complete() keeps the total only', () => {
    assert.equal(DEFAULT_FIRST_BYTE_TIMEOUT_MS, 60_000);
    assert.equal(DEFAULT_IDLE_TIMEOUT_MS, 60_000);
    const timeouts = streamTimeouts({}, 600_000);
    assert.deepEqual(timeouts, { totalMs: 600_000, firstByteMs: 60_000, idleMs: 60_000 });
    assert.deepEqual(wholeCallTimeouts(timeouts), { totalMs: 600_000, firstByteMs: 0, idleMs: 0 });
    assert.deepEqual(streamTimeouts({ timeoutMs: 5, firstByteTimeoutMs: 0, idleTimeoutMs: 7 }, 600_000), { totalMs: 5, firstByteMs: 0, idleMs: 7 });
  });

  test('no byte at all: the first-byte limit fires', async (t) => {
    const tick = await virtualClock(t);
    const call = new CallControl(undefined, { totalMs: 10_000, firstByteMs: 1_000, idleMs: 500 });
    tick(999);
    expireNext(call, tick, 'first-byte', /no response within 1 s \(first-byte timeout/);
    assert.equal(call.timedOut, true);
    assert.equal(call.callerAborted, false);
  });

  // Each case: its limits, bytes arriving after these waits (ms), then the wait until 1 ms before the end.
  const cases = [
    {
      name: 'after the first byte the idle window applies, even when shorter than what was left of the first-byte wait',
      limits: { totalMs: 0, firstByteMs: 5_000, idleMs: 300 },
      bytesAfter: [100],
      then: 299,
      phase: 'idle',
      text: /silent for 300 ms \(idle timeout/,
    },
    {
      name: 'a steady stream is never cut by the idle window, only by the total',
      limits: { totalMs: 2_000, firstByteMs: 300, idleMs: 300 },
      bytesAfter: Array.from({ length: 19 }, () => 100),
      then: 99,
      phase: 'total',
      text: /longer than 2 s \(total timeout/,
    },
  ];
  for (const { name, limits, bytesAfter, then, phase, text } of cases) {
    test(name, async (t) => {
      const tick = await virtualClock(t);
      const call = new CallControl(undefined, limits);
      for (const wait of bytesAfter) {
        tick(wait);
        call.touch();
      }
      tick(then);
      expireNext(call, tick, phase, text);
    });
  }

  test('limits of 0 are off; a caller abort is told apart from a timeout', async (t) => {
    const tick = await virtualClock(t);
    const caller = new AbortController();
    const call = new CallControl(caller.signal, { totalMs: 0, firstByteMs: 0, idleMs: 0 });
    tick(10 * 60_000);
    assert.equal(call.signal.aborted, false);
    caller.abort(new Error('stop'));
    assert.equal(call.signal.aborted, true);
    assert.equal(call.callerAborted, true);
    assert.equal(call.timedOut, false);
    call.dispose();
  });

  test('dispose stops the timer: a touch afterwards arms nothing', async (t) => {
    const tick = await virtualClock(t);
    const call = new CallControl(undefined, { totalMs: 0, firstByteMs: 100, idleMs: 100 });
    call.dispose();
    call.touch();
    tick(1_000);
    assert.equal(call.timedOut, false);
  });
});
