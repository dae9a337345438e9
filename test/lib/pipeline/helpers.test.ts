import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CancellationError } from '../../../lib/core/errors/index.js';
import { branch, cacheStep, compose, parallel, PipelineError, pipe, retry, step } from '../../../lib/pipeline/index.js';
import { z } from 'zod';
import { tool } from '../../../lib/tools/index.js';

describe('parallel', () => {
  test('every branch gets its own copy of the input; outputs come back in order', async () => {
    const input = { items: [1, 2, 3] };
    const mutate = step((value: { items: number[] }) => {
      value.items.push(99);
      return value.items.length;
    }, 'mutate');
    const read = step(async (value: { items: number[] }) => {
      await new Promise((resolve) => setImmediate(resolve));
      return value.items.join(',');
    }, 'read');
    const result = await parallel(mutate, read).run(input);
    assert.deepEqual(result.output, [4, '1,2,3']);
    assert.deepEqual(input.items, [1, 2, 3], 'the caller’s input is untouched');
  });

  test('one failing branch cancels the others and fails the step', async () => {
    let sawAbort = false;
    const waits = step(
      (_: number, context) =>
        new Promise<number>((resolve, reject) => {
          context.signal.addEventListener('abort', () => {
            sawAbort = true;
            reject(new Error('aborted'));
          });
        }),
      'waits',
    );
    const fails = step(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error('branch failed');
    }, 'fails');
    await assert.rejects(parallel(waits, fails).run(1), /branch failed/);
    assert.ok(sawAbort);
  });
});

describe('branch', () => {
  const refund = step((text: string) => `refund: ${text}`, 'refund');
  const support = step((text: string) => `support: ${text}`, 'support');

  test('routes to the handler the router names; step.branch(...) is the same', async () => {
    const routed = branch((text: string) => (text.includes('money') ? 'refund' : 'support'), { refund, support });
    assert.equal((await routed.run('my money back')).output, 'refund: my money back');
    const chained = step((text: string) => text.trim(), 'trim').branch(async (text) => (text === 'help' ? 'support' : 'refund'), { refund, support });
    assert.equal((await chained.run('  help ')).output, 'support: help');
  });

  test('an unknown route is a PipelineError naming the handlers, never a pass-through', async () => {
    const pick = (): 'refund' | 'support' => 'sales' as 'refund';
    const routed = branch(pick, { refund, support });
    await assert.rejects(routed.run('x'), (error: unknown) => PipelineError.isInstance(error) && /chose "sales", and the handlers are "refund", "support"/.test(error.message));
  });
});

describe('retry', () => {
  test('tries up to n times with doubling backoff, on the same input; the last error is thrown', async () => {
    const waits: number[] = [];
    const sleep = (ms: number): Promise<void> => {
      waits.push(ms);
      return Promise.resolve();
    };
    let calls = 0;
    const flaky = step((n: number) => {
      calls += 1;
      if (calls < 3) throw new Error(`fail ${calls}`);
      return n * 10;
    }, 'flaky');
    assert.equal((await retry(flaky, 3, { sleep, backoffMs: 50 }).run(4)).output, 40);
    assert.equal(calls, 3);
    assert.deepEqual(waits, [50, 100]);
    calls = -10;
    waits.length = 0;
    await assert.rejects(retry(flaky, 2, { sleep }).run(1), /fail -8/);
    assert.deepEqual(waits, [100]);
  });

  test('cancellation is not retried', async () => {
    const controller = new AbortController();
    let calls = 0;
    const cancels = step(() => {
      calls += 1;
      controller.abort(new Error('stop'));
      throw new Error('interrupted');
    }, 'cancels');
    await assert.rejects(retry(cancels, 5, { sleep: () => Promise.resolve() }).run(1, { signal: controller.signal }));
    assert.equal(calls, 1);
    await assert.rejects(retry(cancels, 5).run(1, { signal: controller.signal }), (error: unknown) => CancellationError.isInstance(error));
  });

  test('refuses a nonsensical attempt count', () => {
    assert.throws(() => retry(step((n: number) => n), 0), RangeError);
  });
});

describe('cacheStep', () => {
  test('within the TTL an equal input is served from the cache; after it the step runs again (virtual clock)', async () => {
    let now = 0;
    let calls = 0;
    const expensive = step((query: { q: string }) => {
      calls += 1;
      return `${query.q}#${calls}`;
    }, 'expensive');
    const cached = cacheStep(expensive, 1_000, { now: () => now });
    assert.equal((await cached.run({ q: 'a' })).output, 'a#1');
    now = 999;
    assert.equal((await cached.run({ q: 'a' })).output, 'a#1');
    assert.equal((await cached.run({ q: 'b' })).output, 'b#2');
    now = 1_000;
    assert.equal((await cached.run({ q: 'a' })).output, 'a#3', 'expired at exactly the TTL');
    assert.equal(calls, 3);
  });

  test('failures are not cached; concurrent equal inputs share one execution; LRU bound', async () => {
    let calls = 0;
    const sometimes = step(async (n: number) => {
      calls += 1;
      await new Promise((resolve) => setImmediate(resolve));
      if (calls === 1) throw new Error('first fails');
      return n;
    }, 'sometimes');
    const cached = cacheStep(sometimes, 60_000, { maxEntries: 2 });
    await assert.rejects(cached.run(1), /first fails/);
    const [a, b] = await Promise.all([cached.run(1), cached.run(1)]);
    assert.equal(a.output, 1);
    assert.equal(b.output, 1);
    assert.equal(calls, 2);
    await cached.run(2);
    await cached.run(3); // evicts 1 (least recently used)
    await cached.run(1);
    assert.equal(calls, 5);
  });
});

describe('compose and step(tool)', () => {
  const lookup = tool({
    name: 'lookup',
    description: 'Find a user by id',
    parameters: z.object({ id: z.number().int() }),
    execute: ({ id }: { id: number }) => ({ email: `user${id}@example.com` }),
  });
  const send = tool({
    name: 'send',
    description: 'Send a mail message',
    parameters: z.object({ email: z.string() }),
    execute: ({ email }: { email: string }) => `sent to ${email}`,
  });

  test("compose(a, b): a's object result becomes b's arguments", async () => {
    const result = await compose(lookup, send).run({ id: 7 });
    assert.equal(result.output.content, 'sent to user7@example.com');
    assert.deepEqual(result.steps.map((s) => s.name), ['lookup', 'send', 'compose(lookup, send)'], 'inner steps first: finishing order');
  });

  test('arguments are validated like a model call; a non-object result needs a map', async () => {
    await assert.rejects(step(lookup).run({ id: 'seven' } as unknown as { id: number }), /id/);
    await assert.rejects(compose(send, lookup).run({ email: 'a@b.c' }), (error: unknown) => PipelineError.isInstance(error) && /give compose a map function/.test(error.message));
    const mapped = await compose(send, lookup, () => ({ id: 1 })).run({ email: 'a@b.c' });
    assert.match(mapped.output.content, /user1@example.com/);
  });

  test('pipe works across tools and functions', async () => {
    const result = await pipe(step((id: number) => ({ id }), 'wrap'), compose(lookup, send)).run(3);
    assert.equal(result.output.content, 'sent to user3@example.com');
  });
});
