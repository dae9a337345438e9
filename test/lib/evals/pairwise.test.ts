import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { PairwiseEval } from '../../../lib/evals/pairwise/pairwise-eval.js';
import { readPairwiseVerdict } from '../../../lib/evals/pairwise/pairwise-verdict.js';
import type { EvalCase } from '../../../lib/evals/types.js';
import type { ProviderRequest } from '../../../lib/providers/spec.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { testRuntime } from '../../support/agent-harness.js';

const evalCase = (id: string): EvalCase => ({ id, input: `question ${id}`, vars: {}, assert: [], tags: [], weight: 1, metadata: {} });

function agentSaying(text: (prompt: string) => string): Agent {
  return new Agent({ provider: new ScriptedProvider({ respond: (r) => text(String(r.messages.at(-1)?.content ?? '')) }), runtime: testRuntime() });
}

/** The answer shown in position `n` of a judge prompt. */
function answerAt(request: ProviderRequest, n: 1 | 2): string {
  const prompt = String(request.messages.at(-1)?.content ?? '');
  return new RegExp(`Answer ${n}:\\n([\\s\\S]*?)(\\n\\nAnswer 2:|$)`).exec(prompt)?.[1] ?? '';
}

/** A fair judge: the answer containing "good" wins, whatever its position; neither → tie. */
function fairJudge(requests: ProviderRequest[] = []): ScriptedProvider {
  return new ScriptedProvider({
    respond: (r) => {
      requests.push(r);
      const one = answerAt(r, 1).includes('good');
      const two = answerAt(r, 2).includes('good');
      return JSON.stringify({ winner: one === two ? 'tie' : one ? '1' : '2', reason: 'contains good' });
    },
  });
}

describe('PairwiseEval', () => {
  it('runs both agents on each case and judges in both orders at temperature 0; the better side wins', async () => {
    const requests: ProviderRequest[] = [];
    const a = agentSaying((p) => `good answer to ${p}`);
    const b = agentSaying((p) => `weak answer to ${p}`);
    const report = await new PairwiseEval({ a: { name: 'v2', agent: a }, b: { name: 'v1', agent: b }, grader: { provider: fairJudge(requests), model: 'judge-1' } }).run([evalCase('x'), evalCase('y'), { ...evalCase('z'), skip: true }]);
    assert.deepEqual(report.cases.map((c) => [c.id, c.winner, c.consistent]), [['x', 'a', true], ['y', 'a', true]]);
    assert.deepEqual(report.wins, { a: 2, b: 0, tie: 0, invalid: 0, error: 0 });
    assert.equal(report.winRateA, 1);
    assert.equal(report.cases[0]?.outputA, 'good answer to question x');
    assert.deepEqual(report.cases[0]?.judgements.map((j) => [j.order, j.winner]), [['ab', 'a'], ['ba', 'a']]);
    assert.equal(requests.length, 4);
    assert.ok(requests.every((r) => r.temperature === 0 && r.model === 'judge-1'));
    assert.equal(requests.filter((r) => answerAt(r, 1).startsWith('weak answer')).length, 2, 'one judgement per case shows B first');
  });

  it('a judge that always picks the first position cannot make a side win: the orders disagree, the case is a tie', async () => {
    const biased = new ScriptedProvider({ respond: () => '{"winner": "1", "reason": "first is best"}' });
    const items = [{ id: 'q', input: 'q?', a: 'alpha', b: 'beta' }];
    const swapped = await new PairwiseEval({ a: { name: 'A' }, b: { name: 'B' }, grader: { provider: biased } }).compareOutputs(items);
    assert.deepEqual([swapped.cases[0]?.winner, swapped.cases[0]?.consistent, swapped.inconsistent], ['tie', false, 1]);
    assert.equal(swapped.winRateA, 0.5);
    const once = await new PairwiseEval({ a: { name: 'A' }, b: { name: 'B' }, grader: { provider: biased }, swap: false }).compareOutputs(items);
    assert.equal(once.cases[0]?.winner, 'a', 'without swapping the bias decides');
  });

  it('a reply without a parseable winner makes the case invalid, never a win; a failing judge or run is an error', async () => {
    const prose = new ScriptedProvider({ respond: () => 'Answer 1 is clearly better.' });
    const report = await new PairwiseEval({ a: { name: 'A' }, b: { name: 'B' }, grader: { provider: prose } }).compareOutputs([{ id: 'q', input: 'q', a: 'x', b: 'y' }]);
    assert.deepEqual(report.wins, { a: 0, b: 0, tie: 0, invalid: 1, error: 0 });
    assert.match(report.cases[0]?.problem ?? '', /without a parseable winner/);
    assert.equal(report.winRateA, 0.5);

    const down = new ScriptedProvider({ respond: () => { throw new Error('judge offline'); } });
    const judged = await new PairwiseEval({ a: { name: 'A' }, b: { name: 'B' }, grader: { provider: down } }).compareOutputs([{ id: 'q', input: 'q', a: 'x', b: 'y' }]);
    assert.deepEqual([judged.cases[0]?.winner, /judge offline/.test(judged.cases[0]?.problem ?? '')], ['error', true]);

    const broken = new Agent({ provider: new ScriptedProvider({ respond: () => { throw new Error('provider down'); } }), runtime: testRuntime() });
    const run = await new PairwiseEval({ a: { name: 'A', agent: agentSaying(() => 'good') }, b: { name: 'B', agent: broken }, grader: { provider: fairJudge() } }).run([evalCase('x')]);
    assert.equal(run.cases[0]?.winner, 'error');
    assert.match(run.cases[0]?.problem ?? '', /^B: /);
    await assert.rejects(new PairwiseEval({ a: { name: 'A' }, b: { name: 'B' }, grader: { provider: fairJudge() } }).run([evalCase('x')]), /needs an agent on both sides/);
  });

  it('readPairwiseVerdict accepts 1/2/tie (and A/B), refuses anything else', () => {
    assert.deepEqual(readPairwiseVerdict('```json\n{"winner": 2, "reason": "r"}\n```'), { ok: true, winner: '2', reason: 'r' });
    assert.deepEqual(readPairwiseVerdict('{"winner":"A"}'), { ok: true, winner: '1', reason: '' });
    assert.deepEqual(readPairwiseVerdict('{"winner":"TIE"}'), { ok: true, winner: 'tie', reason: '' });
    assert.equal(readPairwiseVerdict('{"winner":"both"}').ok, false);
    assert.equal(readPairwiseVerdict('{"score": 1}').ok, false);
  });
});
