import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { Agent } from '../../../lib/agent/agent.js';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { describeWait, type EvalWait } from '../../../lib/evals/attempt-wait.js';
import { EvalSuite, type EvalProgress } from '../../../lib/evals/eval-suite.js';
import type { EvalCase } from '../../../lib/evals/types.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { tool } from '../../../lib/tools/tool.js';
import { gate } from '../../support/gate.js';
import { testRuntime, weatherTool } from '../../support/agent-harness.js';

function weatherCase(id: string, city: string): EvalCase {
  return { id, input: city, vars: {}, tags: [], weight: 1, metadata: {}, assert: [{ type: 'contains', negate: false, value: city, weight: 1 }] };
}

type Wait = Extract<EvalProgress, { type: 'attempt-wait' }>;

describe('what a running eval attempt waits on (attempt-wait progress)', () => {
  it('reports the model, the retry backoff, the tool and the checks, in order, from the run own events', async () => {
    const provider = new ScriptedProvider({
      replies: [
        { error: new ProviderError('overloaded', { provider: 'scripted', status: 529 }) },
        { toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Rome' } }] },
        'Rome: sunny',
      ],
    });
    const agent = new Agent({ provider, model: 'gpt-4o-mini', tools: [weatherTool()], runtime: testRuntime() });
    const waits: Wait[] = [];
    let clock = 5_000;
    const report = await new EvalSuite(agent, [weatherCase('rome', 'Rome')], { now: () => clock++, onProgress: (p) => void (p.type === 'attempt-wait' && waits.push(p)) }).run();
    assert.equal(report.cases[0]?.verdict, 'pass');
    assert.deepEqual(waits.map((w) => w.wait.on), ['model', 'retry', 'agent', 'tool', 'agent', 'model', 'agent', 'checks']);
    assert.deepEqual(waits[0]?.wait, { on: 'model', model: 'gpt-4o-mini' });
    const retry = waits[1]?.wait as Extract<EvalWait, { on: 'retry' }>;
    assert.deepEqual([retry.model, retry.attempt], ['gpt-4o-mini', 1]);
    assert.ok(retry.untilMs > 5_000, 'the backoff ends after it began');
    assert.deepEqual(waits[3]?.wait, { on: 'tool', tools: ['get_weather'] });
    assert.ok(waits.every((w) => w.caseId === 'rome' && w.worker === 1 && w.attempt === 1));
  });

  it('two workers at once: each worker is told only about its own case run', async () => {
    const release = gate();
    let started = 0;
    const bothStarted = gate();
    const provider = new ScriptedProvider({
      respond: (request) => {
        const city = request.messages.find((m) => m.role === 'user')?.content ?? '';
        return request.messages.some((m) => m.role === 'tool') ? `${city}: fine` : { toolCalls: [{ toolName: 'get_weather', parameters: { city } }] };
      },
    });
    const held = tool({
      name: 'get_weather',
      description: 'Get the weather of a city (waits until the test releases it)',
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        if (++started === 2) bothStarted.open();
        await release.opened;
        return `${city}: fine`;
      },
    });
    const agent = new Agent({ provider, tools: [held], runtime: testRuntime() });
    const waits: Wait[] = [];
    const run = new EvalSuite(agent, [weatherCase('rome', 'Rome'), weatherCase('faro', 'Faro')], { maxConcurrency: 2, onProgress: (p) => void (p.type === 'attempt-wait' && waits.push(p)) }).run();
    await bothStarted.opened;
    // both attempts are inside their tool now, one per worker
    const byWorker = new Map(waits.map((w) => [w.worker, w]));
    assert.deepEqual([...byWorker.values()].map((w) => [w.caseId, w.wait.on]).sort(), [['faro', 'tool'], ['rome', 'tool']]);
    release.open();
    const report = await run;
    assert.deepEqual(report.cases.map((c) => c.verdict), ['pass', 'pass']);
    const cases = new Map<number, Set<string>>();
    for (const w of waits) cases.set(w.worker, (cases.get(w.worker) ?? new Set()).add(w.caseId));
    assert.deepEqual([...cases.values()].map((s) => s.size), [1, 1], 'no worker saw the other case');
  });

  it('describeWait: the words of the live view', () => {
    assert.equal(describeWait({ on: 'model', model: 'gpt-4o-mini' }, 0), 'model gpt-4o-mini');
    assert.equal(describeWait({ on: 'tool', tools: ['search_kb'] }, 0), 'tool search_kb');
    assert.equal(describeWait({ on: 'tool', tools: ['read_file', 'list_files'] }, 0), 'tools read_file, list_files');
    assert.equal(describeWait({ on: 'retry', model: 'm', attempt: 2, untilMs: 2_500 }, 1_000), 'retry backoff 1.5 s (retry 2, m)');
    assert.equal(describeWait({ on: 'retry', model: 'm', attempt: 2, untilMs: 2_500 }, 2_500), 'model m (retry 2)', 'once the backoff is over the call is in flight again');
    assert.equal(describeWait({ on: 'checks' }, 0), 'checks');
  });
});
