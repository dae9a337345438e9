import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { linkSignals } from '../../../lib/core/linked-signal.js';
import { HttpError } from '../../../lib/serve/http-error.js';
import { RunTracker } from '../../../lib/serve/run-tracker.js';

const reason = (): HttpError => new HttpError(504, 'timeout_error', 'too slow');

describe('RunTracker and RunSlot', () => {
  test('race: the work wins, or an abort rejects the waiting race at once; the slot is held until the work settles', async () => {
    const tracker = new RunTracker({ maxConcurrency: 2, timeoutMs: 0 });
    const slot = tracker.acquire();
    assert.equal(await slot.race(Promise.resolve(1)), 1);
    let finish!: (value: string) => void;
    const slow = new Promise<string>((resolve) => {
      finish = resolve;
    });
    const raced = slot.race(slow);
    slot.abort(reason());
    await assert.rejects(raced, (error: unknown) => HttpError.isInstance(error) && error.status === 504);
    assert.equal(slot.signal.aborted, true);
    await assert.rejects(slot.race(Promise.resolve(2)), /too slow/, 'an aborted slot rejects new races at once');
    slot.release();
    assert.equal(tracker.active, 1, 'held while the slow work runs');
    let settled = false;
    void slot.settled.then(() => void (settled = true));
    finish('late');
    await slot.settled;
    assert.equal(settled, true);
    assert.equal(tracker.active, 0);
  });

  test('a rejected work rejects its race with its own error', async () => {
    const tracker = new RunTracker({ maxConcurrency: 1, timeoutMs: 0 });
    const slot = tracker.acquire();
    await assert.rejects(slot.race(Promise.reject(new Error('broken'))), /broken/);
    slot.release();
    assert.equal(tracker.active, 0);
  });

  test('429 past the limit, 503 once draining; drain aborts what is left after the grace period', async () => {
    const tracker = new RunTracker({ maxConcurrency: 1, timeoutMs: 0 });
    const slot = tracker.acquire();
    assert.throws(() => tracker.acquire(), (error: unknown) => HttpError.isInstance(error) && error.status === 429);
    const run = slot.race(new Promise<never>(() => undefined));
    const drained = tracker.drain(10, 10);
    assert.throws(() => tracker.acquire(), (error: unknown) => HttpError.isInstance(error) && error.status === 503);
    await assert.rejects(run, (error: unknown) => HttpError.isInstance(error) && error.status === 503);
    slot.release();
    assert.deepEqual(await drained, { finished: 0, aborted: 1 });
  });

  test('the run signal is handed over: the run links it without a signal of its own', () => {
    const tracker = new RunTracker({ maxConcurrency: 1, timeoutMs: 0 });
    const slot = tracker.acquire();
    const signal = slot.runSignal();
    assert.equal(signal, slot.signal);
    const linked = linkSignals([undefined, signal, undefined]);
    assert.equal(linked.signal, signal);
    slot.abort(reason());
    assert.equal(linked.signal.aborted, true);
    slot.release();
  });
});
