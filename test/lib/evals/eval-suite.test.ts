import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import type { AgentEvent } from '../../../lib/events/types.js';
import { EvalSuite } from '../../../lib/evals/eval-suite.js';
import { EvalReport } from '../../../lib/evals/eval-report.js';
import { parseSuite } from '../../../lib/evals/load-suite.js';
import type { EvalCase } from '../../../lib/evals/types.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { ToolPolicy } from '../../../lib/safety/tool-policy.js';
import { testRuntime, weatherTool } from '../../support/agent-harness.js';

function contains(id: string, input: string, value: string, extra: Partial<EvalCase> = {}): EvalCase {
  return { id, input, vars: {}, tags: [], weight: 1, metadata: {}, assert: [{ type: 'contains', negate: false, value, weight: 1 }], ...extra };
}

/** Echoes the prompt back. */
function echoAgent(): Agent {
  return new Agent({ provider: new ScriptedProvider({ respond: (request) => `echo: ${request.messages.at(-1)?.content ?? ''}` }), runtime: testRuntime() });
}

describe('EvalSuite', () => {
  it('runs cases, scores them and emits eval-start / eval-case-end / eval-end on one stream', async () => {
    const events: AgentEvent[] = [];
    const cases = [contains('a', 'apple', 'apple', { tags: ['fruit'], weight: 3 }), contains('b', 'banana', 'cherry', { tags: ['fruit'] }), contains('c', 'carrot', 'carrot', { skip: true })];
    const report = await new EvalSuite(echoAgent(), cases, { name: 'demo', observers: [{ onEvent: (e) => void events.push(e) }], maxConcurrency: 2 }).run();
    assert.deepEqual(report.cases.map((c) => [c.id, c.verdict]), [['a', 'pass'], ['b', 'fail'], ['c', 'skip']]);
    assert.deepEqual(report.counts, { pass: 1, fail: 1, error: 0, skip: 1 });
    assert.equal(report.accuracy, 0.75, 'weighted: 3 of 4, the skipped case excluded');
    assert.equal(report.withTag('fruit').cases.length, 2);
    assert.deepEqual(report.summary.failuresByMetric, [{ metric: 'contains', failures: 1 }]);
    assert.deepEqual(events.map((e) => e.type).filter((t) => t.startsWith('eval-')).sort(), ['eval-case-end', 'eval-case-end', 'eval-case-end', 'eval-end', 'eval-start']);
    assert.equal(events[0]?.type, 'eval-start');
    assert.equal(events.at(-1)?.type, 'eval-end');
    const end = events.at(-1) as Extract<AgentEvent, { type: 'eval-end' }>;
    assert.deepEqual([end.suite, end.passed, end.failed], ['demo', 1, 1]);
    const caseEnd = events.find((e): e is Extract<AgentEvent, { type: 'eval-case-end' }> => e.type === 'eval-case-end' && e.caseId === 'b');
    assert.deepEqual([caseEnd?.passed, caseEnd?.verdict, caseEnd?.score], [false, 'fail', 0]);
    assert.ok(report.cases[0]?.attempts[0]?.trace?.steps.some((s) => s.type === 'llm_call'), "each case's trace is kept");
  });

  it('pass^k: a provider wrong one run in three makes the case flaky and failed at k=3', async () => {
    let runs = 0;
    const provider = new ScriptedProvider({ respond: () => (++runs % 3 === 2 ? 'no idea' : 'The answer is 42') });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const report = await new EvalSuite(agent, [contains('answer', 'q', '42')], { repeat: 3, maxConcurrency: 1 }).run();
    const [c] = report.cases;
    assert.equal(c?.attempts.length, 3);
    assert.deepEqual(c?.attempts.map((a) => a.verdict), ['pass', 'fail', 'pass']);
    assert.equal(c?.verdict, 'fail');
    assert.equal(c?.flaky, true);
    assert.deepEqual(report.flaky, ['answer']);
    assert.equal(report.accuracy, 0);
    assert.ok(Math.abs(report.summary.runPassRate - 2 / 3) < 1e-9);
    const once = await new EvalSuite(new Agent({ provider: new ScriptedProvider({ replies: ['42'] }), runtime: testRuntime() }), [contains('answer', 'q', '42')], { repeat: 1 }).run();
    assert.equal(once.cases[0]?.verdict, 'pass', 'k=1 would have hidden it');
  });

  it('a case threshold passes on the weighted score even when one assertion fails', async () => {
    const c: EvalCase = { ...contains('t', 'alpha beta', 'alpha'), assert: [{ type: 'contains', negate: false, value: 'alpha', weight: 3 }, { type: 'contains', negate: false, value: 'gamma', weight: 1 }], threshold: 0.75 };
    const report = await new EvalSuite(echoAgent(), [c, { ...c, id: 't2', threshold: 0.8 }]).run();
    assert.deepEqual(report.cases.map((x) => [x.verdict, x.score]), [['pass', 0.75], ['fail', 0.75]]);
  });

  it('a provider failure is an error, not a failure, and JUnit keeps them apart', async () => {
    const provider = new ScriptedProvider({ respond: (request) => (String(request.messages.at(-1)?.content).includes('boom') ? { error: new Error('upstream exploded') } : 'fine') });
    const agent = new Agent({ provider, runtime: testRuntime(), retry: { maxRetries: 0 } });
    const report = await new EvalSuite(agent, [contains('ok', 'x', 'fine'), contains('bad', 'y', 'nope'), contains('boom', 'boom', 'fine')]).run();
    assert.deepEqual(report.cases.map((c) => c.verdict), ['pass', 'fail', 'error']);
    assert.match(report.cases[2]?.attempts[0]?.error ?? '', /upstream exploded/);
    const junit = report.toJUnit();
    assert.match(junit, /<testsuite name="eval" tests="3" failures="1" errors="1" skipped="0"/);
    assert.match(junit, /<testcase name="bad"[^>]*>\s*<failure message="contains: output lacks &quot;nope&quot;" type="contains">/);
    assert.match(junit, /<testcase name="boom"[^>]*>\s*<error message="[^"]*upstream exploded/);
    const md = report.toMarkdown();
    assert.match(md, /\| bad \| fail \| contains: output lacks "nope" \|/);
    assert.match(md, /\| boom \| error \|/);
  });

  it('a per-run timeout makes the case an error', async () => {
    const agent = new Agent({ provider: new ScriptedProvider({ replies: [{ text: 'late', delayMs: 60_000 }] }), runtime: testRuntime() });
    const report = await new EvalSuite(agent, [contains('slow', 'x', 'late')], { timeoutMs: 30 }).run();
    assert.equal(report.cases[0]?.verdict, 'error');
    assert.match(report.cases[0]?.attempts[0]?.error ?? '', /timed out after 30 ms/);
  });

  it('cancellation stops the suite: cases not finished are skipped and the report says cancelled', async () => {
    const controller = new AbortController();
    const agent = new Agent({ provider: new ScriptedProvider({ replies: [{ text: 'never', delayMs: 60_000 }] }), runtime: testRuntime() });
    const suite = new EvalSuite(agent, [contains('a', 'x', 'y'), contains('b', 'x', 'y')], {
      maxConcurrency: 1,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.type === 'attempt-start') controller.abort(new Error('stop'));
      },
    });
    const report = await suite.run();
    assert.equal(report.cancelled, true);
    assert.deepEqual(report.cases.map((c) => [c.verdict, c.skipReason]), [['skip', 'cancelled before it finished'], ['skip', 'cancelled before it finished']]);
  });

  it('scripted approvals answer review-gated tools; unlisted tools are denied', async () => {
    const replies = () => [{ toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Oslo' } }] }, 'done'];
    const make = (): Agent => new Agent({ provider: new ScriptedProvider({ replies: replies() }), tools: [weatherTool()], toolPolicy: new ToolPolicy({ review: ['get_weather'] }), runtime: testRuntime() });
    const used: EvalCase = { ...contains('w', 'weather', 'done'), assert: [{ type: 'step-count', negate: false, value: { type: 'tool_execution', min: 1 }, weight: 1 }, { type: 'tool-args-match', negate: false, value: { get_weather: { city: 'Oslo' } }, weight: 1 }] };
    const approved = await new EvalSuite(make(), [{ ...used, approvals: { get_weather: { approved: true } } }]).run();
    const calls = approved.cases[0]?.attempts[0]?.trace?.steps.filter((s) => s.type === 'tool_execution') ?? [];
    assert.equal(calls[0]?.status, 'ok');
    const denied = await new EvalSuite(make(), [used]).run();
    const deniedCalls = denied.cases[0]?.attempts[0]?.trace?.steps.filter((s) => s.type === 'tool_execution') ?? [];
    assert.notEqual(deniedCalls[0]?.status, 'ok');
  });

  it('estimateCost counts calls and tokens before running', async () => {
    const agent = new Agent({ provider: new ScriptedProvider(), model: 'gpt-4o-mini', runtime: testRuntime() });
    const suite = new EvalSuite(agent, [contains('a', 'hello', 'x'), { ...contains('b', 'weather?', 'x'), assert: [{ type: 'tool-used', negate: false, value: 'get_weather', weight: 1 }, { type: 'llm-rubric', negate: false, value: 'ok', weight: 1 }] }], { repeat: 2 });
    const estimate = suite.estimateCost();
    assert.equal(estimate.runs, 4);
    assert.equal(estimate.agentCalls, 2 * (1 + 2));
    assert.equal(estimate.judgeCalls, 2);
    assert.equal(estimate.priced, true);
    assert.ok(estimate.costUsd > 0);
  });

  it('runs a loaded suite definition with its evaluateOptions, and the report round-trips through JSON', async () => {
    const definition = await parseSuite('description: loaded\nevaluateOptions: { repeat: 2 }\ntests:\n  - input: hi\n    expect_contains: HI\n', { env: {} });
    const report = await new EvalSuite(echoAgent(), definition).run();
    assert.equal(report.suite, 'loaded');
    assert.equal(report.repeat, 2);
    assert.equal(report.cases[0]?.attempts.length, 2);
    const json = JSON.parse(JSON.stringify(report.toJSON())) as unknown;
    const back = EvalReport.fromJSON(json);
    assert.deepEqual(back.summary, report.summary);
    assert.throws(() => EvalReport.fromJSON({ ...(json as object), version: 99 }), /version 99/);
    assert.throws(() => EvalReport.fromJSON({ cases: [] }), /not an agentlib eval report/);
  });
});
