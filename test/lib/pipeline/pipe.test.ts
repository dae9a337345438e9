import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/index.js';
import { CancellationError } from '../../../lib/core/errors/index.js';
import type { AgentEvent } from '../../../lib/events/types.js';
import { Pipeline, pipe, step, type StepResult } from '../../../lib/pipeline/index.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { testRuntime } from '../../support/agent-harness.js';

const double = step((n: number) => n * 2, 'double');
const addOne = step(async (n: number) => n + 1, 'addOne');
const show = step((n: number) => `n=${n}`, 'show');

describe('pipe and a.pipe(b)', () => {
  test('each step runs on the previous output; run() gives the output and every StepResult', async () => {
    const pipeline = pipe(double, addOne, show);
    const result = await pipeline.run(5);
    assert.equal(result.output, 'n=11');
    assert.deepEqual(result.steps.map((s: StepResult) => [s.name, s.output]), [['double', 10], ['addOne', 11], ['show', 'n=11']]);
    for (const each of result.steps) assert.ok(each.durationMs >= 0);
    assert.equal(pipeline.name, 'double | addOne | show');
    assert.match(result.runId, /^pipe_/);
  });

  test('a.pipe(b).pipe(c) equals pipe(a, b, c), and nested pipelines flatten', async () => {
    const chained = double.pipe(addOne).pipe(show);
    assert.ok(chained instanceof Pipeline);
    assert.deepEqual(chained.steps.map((s) => s.name), ['double', 'addOne', 'show']);
    const nested = pipe(pipe(double, addOne), show);
    assert.deepEqual(nested.steps.map((s) => s.name), ['double', 'addOne', 'show']);
    assert.equal((await chained.run(1)).output, (await nested.run(1)).output);
  });

  test('stream() emits step-start and step-end in order, with the output summarised; result resolves', async () => {
    const stream = pipe(double, step((n: number) => 'x'.repeat(n), 'long')).stream(150);
    const events: AgentEvent[] = [];
    for await (const event of stream) events.push(event);
    assert.deepEqual(events.map((e) => e.type), ['step-start', 'step-end', 'step-start', 'step-end']);
    const last = events[3];
    assert.ok(last?.type === 'step-end');
    assert.equal(last.step, 'long');
    assert.equal(last.index, 1);
    assert.equal(last.output.length, 201, 'the 300-character output is cut to 200 characters and an ellipsis');
    assert.equal((await stream.result).output.length, 300);
  });

  test('observers get onStepStart / onStepEnd', async () => {
    const seen: string[] = [];
    await pipe(double, addOne).run(1, {
      observers: [
        {
          onStepStart: (e) => {
            seen.push(`start ${e.step}`);
          },
          onStepEnd: (e) => {
            seen.push(`end ${e.step}`);
          },
        },
      ],
    });
    assert.deepEqual(seen, ['start double', 'end double', 'start addOne', 'end addOne']);
  });

  test('a step that throws fails the run with its error; later steps do not run', async () => {
    const ran: string[] = [];
    const boom = step(() => {
      throw new Error('boom');
    }, 'boom');
    await assert.rejects(pipe(double, boom, step((n: number) => ran.push(String(n)), 'after')).run(1), /boom/);
    assert.deepEqual(ran, []);
  });

  test('cancellation: the running step sees the signal, no later step starts', async () => {
    const controller = new AbortController();
    const later: number[] = [];
    const cancelling = step((n: number, context) => {
      controller.abort(new Error('stop'));
      assert.ok(context.signal.aborted);
      return n;
    }, 'cancelling');
    await assert.rejects(pipe(double, cancelling, step((n: number) => later.push(n), 'later')).run(1, { signal: controller.signal }), (error: unknown) => CancellationError.isInstance(error));
    assert.deepEqual(later, []);
  });

  test('step(agent): the pipeline input reaches the agent as its prompt; its answer goes on; parentRunId links the runs', async () => {
    const provider = new ScriptedProvider({ replies: ['Paris'] });
    const agent = new Agent({ name: 'geo', provider, runtime: testRuntime() });
    const result = await pipe(step((city: string) => `Capital of ${city}?`, 'ask'), step(agent), step((answer: string) => answer.toUpperCase(), 'shout')).run('France');
    assert.equal(result.output, 'PARIS');
    const sent = provider.requests[0]?.messages.at(-1);
    assert.equal(sent?.content, 'Capital of France?');
    assert.deepEqual(result.steps.map((s) => s.name), ['ask', 'geo', 'shout']);
  });

  test('types: pipe(a, b) only compiles when a’s output is b’s input', () => {
    const toText = step((n: number) => String(n), 'toText');
    const needsNumber = step((n: number) => n + 1, 'needsNumber');
    // @ts-expect-error a string output cannot feed a step that takes a number
    pipe(toText, needsNumber);
    // @ts-expect-error the same through a.pipe(b)
    toText.pipe(needsNumber);
    const ok: Pipeline<number, number> = pipe(needsNumber, toText, step((s: string) => s.length, 'len'));
    assert.ok(ok);
  });
});
