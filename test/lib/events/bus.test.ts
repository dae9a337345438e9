import assert from 'node:assert/strict';
import { describe, mock, test } from 'node:test';
import { EventBus } from '../../../lib/events/bus.js';
import type { AgentObserver } from '../../../lib/events/observer.js';
import type { AgentEvent, AgentEventOf } from '../../../lib/events/types.js';

const toolStart = (callId = 'c1'): AgentEventOf<'tool-start'> => ({ type: 'tool-start', runId: 'run_1', timestamp: 1, callId, toolName: 'lookup', args: {} });
const iterationStart: AgentEvent = { type: 'iteration-start', runId: 'run_1', timestamp: 2, iteration: 1 };

function captureWarnings(): { warnings: string[]; restore: () => void } {
  const warnings: string[] = [];
  const spy = mock.method(process, 'emitWarning', (warning: string | Error) => void warnings.push(String(warning)));
  return { warnings, restore: () => spy.mock.restore() };
}

describe('EventBus', () => {
  test('listeners get every event synchronously until they unsubscribe', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    const unsubscribe = bus.subscribe((e) => seen.push(e.type));
    assert.equal(bus.emit(toolStart()), undefined);
    void bus.emit(iterationStart);
    assert.deepEqual(seen, ['tool-start', 'iteration-start']);
    unsubscribe();
    void bus.emit(iterationStart);
    assert.equal(seen.length, 2);
  });

  test('calls the method of the event type (with this bound) and onEvent for every event', () => {
    const calls: string[] = [];
    class Recorder implements AgentObserver {
      prefix = 'rec';
      onToolStart(event: AgentEventOf<'tool-start'>): void {
        calls.push(`${this.prefix}:${event.toolName}`);
      }
      onEvent(event: AgentEvent): void {
        calls.push(`any:${event.type}`);
      }
    }
    const bus = new EventBus({ observers: [new Recorder()] });
    void bus.emit(toolStart());
    void bus.emit(iterationStart);
    assert.deepEqual(calls, ['rec:lookup', 'any:tool-start', 'any:iteration-start']);
  });

  test('emit stays synchronous unless a blocking observer returns a promise', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const bus = new EventBus({
      observers: [
        { name: 'sync', onToolStart: () => void order.push('sync') },
        { name: 'background', onToolStart: async () => { await gate; order.push('background'); } },
      ],
    });
    assert.equal(bus.emit(toolStart()), undefined, 'non-blocking promises are not returned');
    bus.addObserver({ blocking: true, onToolStart: async () => { await new Promise((r) => setTimeout(r, 5)); order.push('blocking'); } });
    const pending = bus.emit(toolStart('c2'));
    assert.ok(pending instanceof Promise);
    await pending;
    assert.ok(order.includes('blocking'));
    assert.ok(!order.includes('background'), 'fire-and-forget observers are not awaited by emit');
    const flushed = bus.flush();
    release();
    await flushed;
    assert.equal(order.filter((x) => x === 'background').length, 2, 'flush waits for every pending observer promise');
  });

  test('a blocking observer that returns nothing keeps emit synchronous', () => {
    const bus = new EventBus({ observers: [{ blocking: true, onToolStart: () => undefined }] });
    assert.equal(bus.emit(toolStart()), undefined);
  });

  test('throwing and rejecting observers are isolated and reported to onObserverError', async () => {
    const reports: Array<[string, string, string]> = [];
    const after: string[] = [];
    const bus = new EventBus({
      onObserverError: (error, name, event, method) => reports.push([(error as Error).message, `${name}.${method}`, event.type]),
      observers: [
        { name: 'thrower', onToolStart: () => { throw new Error('sync bug'); } },
        { name: 'rejecter', onToolStart: async () => { throw new Error('async bug'); } },
        { name: 'blocker', blocking: true, onToolStart: async () => { throw new Error('blocking bug'); } },
        { name: 'fine', onToolStart: () => void after.push('fine') },
      ],
    });
    bus.subscribe(() => { throw new Error('listener bug'); });
    const pending = bus.emit(toolStart());
    assert.deepEqual(after, ['fine'], 'later observers still run');
    await pending; // never rejects
    await bus.flush();
    assert.deepEqual(
      reports.sort(),
      [['async bug', 'rejecter.onToolStart', 'tool-start'], ['blocking bug', 'blocker.onToolStart', 'tool-start'], ['listener bug', 'listener.listener', 'tool-start'], ['sync bug', 'thrower.onToolStart', 'tool-start']],
    );
  });

  test('a throwing onObserverError is swallowed', () => {
    const bus = new EventBus({ onObserverError: () => { throw new Error('handler bug'); }, observers: [{ onToolStart: () => { throw new Error('x'); } }] });
    assert.doesNotThrow(() => bus.emit(toolStart()));
  });

  test('by default an observer failure warns once per observer and event type', async () => {
    const { warnings, restore } = captureWarnings();
    try {
      class NoisyObserver implements AgentObserver {
        onToolStart(): void {
          throw new Error('boom');
        }
        async onIterationStart(): Promise<void> {
          throw new Error('later boom');
        }
      }
      const bus = new EventBus({ observers: [new NoisyObserver()] });
      for (let i = 0; i < 5; i++) void bus.emit(toolStart(`c${i}`));
      void bus.emit(iterationStart);
      void bus.emit(iterationStart);
      await bus.flush();
    } finally {
      restore();
    }
    assert.equal(warnings.length, 2);
    assert.match(warnings[0]!, /NoisyObserver.*onToolStart.*tool-start.*boom/);
    assert.match(warnings[1]!, /NoisyObserver.*onIterationStart.*iteration-start.*later boom/);
  });

  test('a failing catch-all warns once, whatever the event type', () => {
    const { warnings, restore } = captureWarnings();
    try {
      const bus = new EventBus({ observers: [{ name: 'catch-all', onEvent: () => { throw new Error('always'); } }] });
      void bus.emit(toolStart());
      void bus.emit(iterationStart);
    } finally {
      restore();
    }
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /catch-all.*onEvent/);
  });

  test('addObserver / removeObserver take effect on the next emit', () => {
    const seen: string[] = [];
    const a: AgentObserver = { onToolStart: () => void seen.push('a') };
    const b: AgentObserver = { onEvent: () => void seen.push('b') };
    const bus = new EventBus({ observers: [a] });
    void bus.emit(toolStart());
    bus.addObserver(b);
    void bus.emit(toolStart());
    assert.equal(bus.removeObserver(a), true);
    assert.equal(bus.removeObserver(a), false);
    void bus.emit(toolStart());
    assert.deepEqual(seen, ['a', 'a', 'b', 'b']);
    assert.deepEqual(bus.observers, [b]);
  });

  test('hasReceivers: a listener, or an observer with the event method or onEvent, as of now', () => {
    const bus = new EventBus({ observers: [{ onRunEnd: () => undefined }] });
    assert.equal(bus.hasReceivers('text-delta'), false);
    assert.equal(bus.hasReceivers('run-end'), true);
    const unsubscribe = bus.subscribe(() => undefined);
    assert.equal(bus.hasReceivers('text-delta'), true, 'a listener gets every event');
    unsubscribe();
    assert.equal(bus.hasReceivers('text-delta'), false);
    const deltas: AgentObserver = { onTextDelta: () => undefined };
    bus.addObserver(deltas);
    assert.equal(bus.hasReceivers('text-delta'), true);
    assert.equal(bus.hasReceivers('reasoning-delta'), false);
    const all: AgentObserver = { onEvent: () => undefined };
    bus.addObserver(all);
    assert.equal(bus.hasReceivers('reasoning-delta'), true);
    bus.removeObserver(all);
    bus.removeObserver(deltas);
    assert.equal(bus.hasReceivers('text-delta'), false);
  });

  test('observer methods are looked up once, not on every emit', () => {
    let lookups = 0;
    const target: AgentObserver = { onToolStart: () => undefined };
    const observer = new Proxy(target, {
      get(object, key, receiver) {
        if (key === 'onToolStart') lookups++;
        return Reflect.get(object, key, receiver) as unknown;
      },
    });
    const bus = new EventBus({ observers: [observer] });
    for (let i = 0; i < 100; i++) void bus.emit(toolStart());
    assert.equal(lookups, 1);
    bus.addObserver({});
    void bus.emit(toolStart());
    assert.equal(lookups, 2, 'rebuilt once after the observer list changed');
  });

  test('observer methods are typed by event', () => {
    const observer: AgentObserver = {
      onToolEnd: (event) => void event.result.length,
      // @ts-expect-error tool-start events have no `result`
      onToolStart: (event) => void event.result,
    };
    assert.ok(observer);
  });
});
