import { CHECKS } from './checks/registry.js';
import type { Assertion, AssertionResult, CheckContext } from './types.js';

/**
 * Runs one assertion on a finished run. `not-` inverts the verdict and the score. A check that
 * throws (a judge's provider failing) propagates: the case is then an error, not a failure.
 */
export async function evaluateAssertion(assertion: Assertion, ctx: CheckContext): Promise<AssertionResult> {
  const check = CHECKS.get(assertion.type);
  const written = `${assertion.negate ? 'not-' : ''}${assertion.type}`;
  const base = { type: written, metric: assertion.metric ?? written, weight: assertion.weight };
  if (check === undefined) return { ...base, pass: false, score: 0, reason: `unknown assertion type "${assertion.type}"` };
  const got = await check.run(assertion, ctx);
  if (!assertion.negate || got.invalid === true) return { ...base, ...got };
  return { ...base, ...got, pass: !got.pass, score: 1 - got.score, reason: `not: ${got.reason}` };
}
