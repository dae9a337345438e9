import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { readJudgeScore } from '../../../lib/evals/checks/judge-score.js';
import { EvalSuite } from '../../../lib/evals/eval-suite.js';
import type { EvalCase } from '../../../lib/evals/types.js';
import type { ProviderRequest } from '../../../lib/providers/spec.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { testRuntime } from '../../support/agent-harness.js';

function rubricCase(negate = false, threshold?: number): EvalCase {
  return { id: 'polite', input: 'Say hello', vars: {}, tags: [], weight: 1, metadata: {}, assert: [{ type: 'llm-rubric', negate, value: 'is polite', weight: 1, ...(threshold === undefined ? {} : { threshold }) }] };
}

async function judged(reply: string, evalCase = rubricCase()): Promise<{ verdict: string; reason: string; requests: ProviderRequest[] }> {
  const requests: ProviderRequest[] = [];
  const grader = new ScriptedProvider({ respond: (request) => (requests.push(request), reply) });
  const agent = new Agent({ provider: new ScriptedProvider({ replies: ['Hello there!'] }), runtime: testRuntime() });
  const report = await new EvalSuite(agent, [evalCase], { grader: { provider: grader, model: 'judge-1' } }).run();
  const [c] = report.cases;
  return { verdict: c?.verdict ?? '', reason: c?.attempts[0]?.assertions[0]?.reason ?? '', requests };
}

describe('LLM judges (rule 7: no parseable score fails the case)', () => {
  it('a JSON score at or above the threshold passes; the call is at temperature 0 with the judge model', async () => {
    const got = await judged('{"score": 0.9, "reason": "friendly"}');
    assert.equal(got.verdict, 'pass');
    assert.match(got.reason, /score 0\.9 \(threshold 0\.7\): friendly/);
    assert.equal(got.requests[0]?.temperature, 0);
    assert.equal(got.requests[0]?.model, 'judge-1');
    assert.match(got.requests[0]?.messages[0]?.content ?? '', /is polite[\s\S]*Answer:\nHello there!/);
  });

  it('a score under the threshold fails', async () => {
    assert.equal((await judged('{"score": 0.4}')).verdict, 'fail');
    assert.equal((await judged('{"score": 0.4}', rubricCase(false, 0.3))).verdict, 'pass');
  });

  it('prose with no score fails the case', async () => {
    const got = await judged('The answer looks great to me, definitely a pass!');
    assert.equal(got.verdict, 'fail');
    assert.match(got.reason, /without a parseable score/);
  });

  it('a score out of range fails the case', async () => {
    const got = await judged('{"score": 8, "reason": "8/10"}');
    assert.equal(got.verdict, 'fail');
    assert.match(got.reason, /outside 0\.\.1/);
  });

  it('a negated judge with no parseable score still fails (never a pass by inversion)', async () => {
    assert.equal((await judged('no idea', rubricCase(true))).verdict, 'fail');
    assert.equal((await judged('{"score": 0.1}', rubricCase(true))).verdict, 'pass');
  });

  it('a judge assertion without a grader fails the case', async () => {
    const agent = new Agent({ provider: new ScriptedProvider({ replies: ['Hello'] }), runtime: testRuntime() });
    const report = await new EvalSuite(agent, [rubricCase()]).run();
    assert.equal(report.cases[0]?.verdict, 'fail');
    assert.match(report.cases[0]?.attempts[0]?.assertions[0]?.reason ?? '', /needs a grader/);
  });

  it('readJudgeScore reads fenced JSON and refuses a non-number', () => {
    assert.deepEqual(readJudgeScore('Here:\n```json\n{"score": 1, "reason": "ok"}\n```'), { ok: true, score: 1, reason: 'ok' });
    assert.equal(readJudgeScore('{"score": "high"}').ok, false);
    assert.equal(readJudgeScore('Score: 0.8').ok, false);
  });

  it('goal-success shows the judge the run\'s tool calls from the trace; correctness needs a reference', async () => {
    const evalCase: EvalCase = { ...rubricCase(), assert: [{ type: 'goal-success', negate: false, weight: 1 }, { type: 'correctness', negate: false, weight: 1 }], reference: 'Hello!' };
    const got = await judged('{"score": 1}', evalCase);
    assert.equal(got.verdict, 'pass');
    assert.match(got.requests[0]?.messages[0]?.content ?? '', /Tool calls:\n\(the agent called no tools\)/);
    assert.match(got.requests[1]?.messages[0]?.content ?? '', /Reference answer:\nHello!/);
    const missing = await judged('{"score": 1}', { ...evalCase, assert: [{ type: 'correctness', negate: false, weight: 1 }], reference: undefined } as unknown as EvalCase);
    assert.equal(missing.verdict, 'fail');
    assert.match(missing.reason, /needs a reference answer/);
  });
});
