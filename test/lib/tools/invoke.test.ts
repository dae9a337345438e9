import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { CancellationError } from '../../../lib/core/errors/cancellation-error.js';
import { tool } from '../../../lib/tools/index.js';
import type { ToolContext } from '../../../lib/tools/index.js';

function context<C = undefined>(signal = new AbortController().signal, userContext?: C): ToolContext<C> {
  return { signal, runId: 'run_1', callId: 'call_1', toolName: 't', context: userContext as C };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('invoke', () => {
  test('passes the arguments and the context separately; the context is not in the schema', async () => {
    let seen: unknown;
    const t = tool({
      name: 'whoami',
      description: 'Returns the current user name',
      parameters: z.object({ greeting: z.string() }),
      execute: ({ greeting }, ctx: ToolContext<{ user: string }>) => {
        seen = { runId: ctx.runId, callId: ctx.callId, toolName: ctx.toolName, aborted: ctx.signal.aborted };
        return `${greeting}, ${ctx.context.user}`;
      },
    });
    const output = await t.invoke({ greeting: 'hi' }, context(undefined, { user: 'ann' }));
    assert.deepEqual(output, { content: 'hi, ann', raw: 'hi, ann' });
    assert.deepEqual(seen, { runId: 'run_1', callId: 'call_1', toolName: 't', aborted: false });
    assert.deepEqual(Object.keys(t.parameters['properties'] as object), ['greeting']);
  });

  test('awaits promises and serialises the value; raw keeps it', async () => {
    const value = { temperature: 21, unit: 'c' };
    const t = tool({ name: 'weather', description: 'Current weather report', execute: async () => value });
    assert.deepEqual(await t.invoke({}, context()), { content: '{"temperature":21,"unit":"c"}', raw: value });
    const nothing = tool({ name: 'noop', description: 'Does nothing at all', execute: () => undefined });
    assert.deepEqual(await nothing.invoke({}, context()), { content: '', raw: undefined });
  });

  test('an array result is a value, not a stream', async () => {
    const chunks: string[] = [];
    const t = tool({ name: 'list', description: 'Lists three numbers', execute: () => [1, 2, 3] });
    assert.equal((await t.invoke({}, context(), (c) => chunks.push(c))).content, '[1,2,3]');
    assert.deepEqual(chunks, []);
  });

  test('an async generator streams chunks to onChunk; the content is their concatenation', async () => {
    const t = tool({
      name: 'count',
      description: 'Counts to three, streaming',
      parameters: z.object({ to: z.number() }),
      async *execute({ to }) {
        for (let i = 1; i <= to; i++) {
          await tick();
          yield i === 2 ? { n: i } : `${i} `;
        }
      },
    });
    const chunks: string[] = [];
    const output = await t.invoke({ to: 3 }, context(), (chunk) => chunks.push(chunk));
    assert.deepEqual(chunks, ['1 ', '{"n":2}', '3 ']);
    assert.equal(output.content, '1 {"n":2}3 ');
    assert.deepEqual(output.raw, ['1 ', { n: 2 }, '3 ']);
  });

  test('sync generators stream too; an async function returning an async iterable is streamed', async () => {
    const sync = tool({
      name: 'letters',
      description: 'Yields a few letters',
      *execute() {
        yield 'a';
        yield 'b';
      },
    });
    const chunks: string[] = [];
    assert.deepEqual(await sync.invoke({}, context(), (c) => chunks.push(c)), { content: 'ab', raw: ['a', 'b'] });
    assert.deepEqual(chunks, ['a', 'b']);
    const later = tool({
      name: 'later',
      description: 'Returns a stream later',
      execute: async () => {
        await tick();
        return (async function* () {
          yield 'x';
          yield 'y';
        })();
      },
    });
    assert.equal((await later.invoke({}, context())).content, 'xy');
  });

  test('cancellation returns at once while a chunk is pending, then closes the generator (its finally runs)', async () => {
    const controller = new AbortController();
    const events: string[] = [];
    // The pending chunk waits on a promise only the test resolves, so invoke can only settle without it.
    let release!: () => void;
    const pending = new Promise<void>((resolve) => (release = resolve));
    const t = tool({
      name: 'ticker',
      description: 'Streams slowly until cancelled',
      async *execute() {
        try {
          yield 'first';
          await pending; // ignores the signal
          events.push('resumed');
          yield 'late';
          events.push('after late');
        } finally {
          events.push('closed');
        }
      },
    });
    const chunks: string[] = [];
    const running = t.invoke({}, context(controller.signal), (chunk) => {
      chunks.push(chunk);
      setImmediate(() => controller.abort());
    });
    await assert.rejects(running, (error: unknown) => (error as Error).name === 'AbortError');
    // Settled while the generator is still stuck in its pending chunk (it has not resumed).
    assert.deepEqual(chunks, ['first']);
    assert.equal(events.join(), '', 'the generator has not resumed');
    // Let the generator go on: the queued return() closes it at its next yield ('late' is not delivered).
    release();
    for (let i = 0; i < 20 && !events.includes('closed'); i++) await tick();
    assert.deepEqual(chunks, ['first']);
    assert.deepEqual(events, ['resumed', 'closed']);
  });

  test('a sync generator is closed between chunks when the signal aborts', async () => {
    const controller = new AbortController();
    let closed = false;
    const t = tool({
      name: 'numbers',
      description: 'Yields numbers forever',
      *execute() {
        try {
          for (let i = 0; ; i++) yield i;
        } finally {
          closed = true;
        }
      },
    });
    const chunks: string[] = [];
    const reason = new Error('stop');
    const running = t.invoke({}, context(controller.signal), (chunk) => {
      chunks.push(chunk);
      if (chunks.length === 3) controller.abort(reason);
    });
    await assert.rejects(running, (error: unknown) => error === reason);
    assert.deepEqual(chunks, ['0', '1', '2']);
    assert.equal(closed, true);
  });

  test('an already aborted signal does not run the tool; a non-Error reason becomes a CancellationError', async () => {
    let ran = false;
    const t = tool({ name: 'side_effect', description: 'Has a side effect', execute: () => (ran = true) });
    const controller = new AbortController();
    controller.abort('user pressed stop');
    await assert.rejects(t.invoke({}, context(controller.signal)), (error: unknown) => CancellationError.isInstance(error) && error.reason === 'user pressed stop');
    assert.equal(ran, false);
  });

  test('errors thrown by execute (sync, async, mid-stream) propagate unchanged', async () => {
    const boom = new Error('kaput');
    const throwing = [
      () => {
        throw boom;
      },
      async () => Promise.reject(boom),
      async function* () {
        yield 'partial';
        throw boom;
      },
    ];
    for (const execute of throwing) {
      const t = tool({ name: 'boom', description: 'Always throws an error', execute });
      await assert.rejects(t.invoke({}, context()), (error: unknown) => error === boom);
    }
  });
});
