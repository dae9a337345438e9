import { userMessage } from '../../core/message.js';
import type { Assertion, CheckContext, CheckOutcome } from '../types.js';
import { outcome, type CheckDefinition } from './check-definition.js';
import { JUDGE_CRITERIA, JUDGE_SYSTEM } from './judge-prompts.js';
import { readJudgeScore } from './judge-score.js';
import { tracedToolCalls } from './trace-view.js';

/** Default minimum judge score for a pass. */
export const DEFAULT_JUDGE_THRESHOLD = 0.7;

function runSummary(ctx: CheckContext): string {
  const calls = tracedToolCalls(ctx.result);
  if (calls.length === 0) return '(the agent called no tools)';
  return calls.map((c, i) => `${i + 1}. ${c.name}(${JSON.stringify(c.args)}) ${c.ok ? 'succeeded' : 'failed'}`).join('\n');
}

function judgePrompt(type: string, assertion: Assertion, ctx: CheckContext): string | { missing: string } {
  const spec = JUDGE_CRITERIA[type];
  if (spec === undefined) return { missing: `unknown judge ${type}` };
  const parts = [`Criterion: ${spec.criterion}`];
  if (spec.needs === 'rubric') {
    const rubric = typeof assertion.value === 'string' ? assertion.value : ctx.evalCase.rubric;
    if (rubric === undefined) return { missing: 'a rubric (the assertion\'s value or the case\'s "rubric")' };
    parts.push(rubric);
  }
  if (spec.needs === 'reference') {
    const reference = typeof assertion.value === 'string' ? assertion.value : ctx.evalCase.reference;
    if (reference === undefined) return { missing: 'a reference answer (the assertion\'s value or the case\'s "reference")' };
    parts.push(`Reference answer:\n${reference}`);
  }
  if (spec.needs === 'context' || (type === 'hallucination' && ctx.evalCase.context !== undefined)) {
    const context = typeof assertion.value === 'string' && spec.needs === 'context' ? assertion.value : ctx.evalCase.context;
    if (context === undefined) return { missing: 'a context (the assertion\'s value or the case\'s "context")' };
    parts.push(`Context:\n${context}`);
  }
  parts.push(`Question:\n${ctx.evalCase.input}`);
  if (type === 'goal-success' || type === 'hallucination') parts.push(`Tool calls:\n${runSummary(ctx)}`);
  parts.push(`Answer:\n${ctx.output}`);
  return parts.join('\n\n');
}

function invalid(reason: string): CheckOutcome {
  return { ...outcome(false, reason), invalid: true };
}

/** Asks the grader for a score and reads it (no parseable score → a failure). */
async function judge(type: string, assertion: Assertion, ctx: CheckContext): Promise<CheckOutcome> {
  if (ctx.grader === undefined) return invalid(`${type} needs a grader: set "grader" on the suite, case or assertion, or pass --grader provider:model`);
  const prompt = judgePrompt(type, assertion, ctx);
  if (typeof prompt !== 'string') return invalid(`${type} needs ${prompt.missing}`);
  const { provider, model } = ctx.grader;
  const response = await provider.complete({
    model: model ?? provider.defaultModel,
    system: JUDGE_SYSTEM,
    messages: [userMessage(prompt)],
    temperature: 0,
    maxTokens: 300,
    ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
  });
  const reading = readJudgeScore(response.message.content);
  if (!reading.ok) return invalid(reading.problem);
  const threshold = assertion.threshold ?? DEFAULT_JUDGE_THRESHOLD;
  const pass = reading.score >= threshold;
  return { pass, score: reading.score, reason: `score ${reading.score} (threshold ${threshold})${reading.reason === '' ? '' : `: ${reading.reason}`}`, expected: `≥ ${threshold}`, actual: String(reading.score) };
}

/** The LLM-judge assertions: temperature 0, a JSON score in [0, 1], pass at `threshold` (default 0.7). */
export const JUDGE_CHECKS: readonly CheckDefinition[] = Object.entries(JUDGE_CRITERIA).map(([type, spec]) => ({
  type,
  description: spec.description,
  kind: 'judge' as const,
  validate: (a) => {
    if (a.threshold !== undefined && (a.threshold < 0 || a.threshold > 1)) return 'needs a "threshold" between 0 and 1';
    if (a.value !== undefined && typeof a.value !== 'string') return 'takes a "value" string';
    return undefined;
  },
  run: (assertion, ctx) => judge(type, assertion, ctx),
}));
