import { closestMatch } from '../../core/suggest.js';
import { plain } from '../../config/read-collections.js';
import { report, type ReadContext } from '../../config/read-context.js';
import { readMapping } from '../../config/read-mapping.js';
import { num, str, type FieldTable, type Reader } from '../../config/readers.js';
import { ASSERTION_TYPES, CHECKS, splitNegation } from '../checks/registry.js';
import type { Assertion } from '../types.js';

const ASSERTION_FIELDS: FieldTable = {
  type: { read: str({ nonEmpty: true }), type: 'string', description: 'the assertion type; `not-` inverts it', required: true },
  value: { read: plain, type: 'any', description: 'what the check compares with (its meaning depends on the type)' },
  threshold: { read: num({ min: 0 }), type: 'number ≥ 0', description: 'judges: minimum score (0..1); latency / cost / iterations: the limit' },
  weight: { read: num({ min: 0 }), type: 'number ≥ 0', description: "weight in the case's score", default: '1' },
  metric: { read: str({ nonEmpty: true }), type: 'string', description: 'name to group results under in the report' },
  grader: { read: str({ nonEmpty: true }), type: 'provider:model', description: 'the judge for this assertion' },
};

/** `12:7` of a node (the suite loader prefixes the file). */
export function positionOf(ctx: ReadContext, node: unknown): string {
  const target = ctx.yaml.isNode(node) ? node : undefined;
  const { line, col } = ctx.lineCounter.linePos(target?.range?.[0] ?? 0);
  return `${Math.max(1, line)}:${Math.max(1, col)}`;
}

/**
 * Checks a built assertion: a known type (with a did-you-mean) and a value the check accepts.
 * Reports at `node` and returns false when it is broken.
 */
export function checkAssertion(ctx: ReadContext, node: unknown, path: string, written: string, assertion: Omit<Assertion, 'at'>): boolean {
  const check = CHECKS.get(assertion.type);
  if (check === undefined) {
    const known = [...ASSERTION_TYPES, ...ASSERTION_TYPES.map((t) => `not-${t}`)];
    const suggestion = closestMatch(written, known);
    report(ctx, node, path, `unknown assertion type "${written}"`, suggestion === undefined ? { hint: `known types: ${ASSERTION_TYPES.join(', ')}` } : { suggestion });
    return false;
  }
  if (assertion.negate && check.negatable === false) {
    report(ctx, node, path, `"${written}" has no meaning: a ${assertion.type} assertion cannot be negated`);
    return false;
  }
  const problem = check.validate(assertion);
  if (problem !== undefined) {
    report(ctx, node, path, `assertion "${written}" ${problem}`);
    return false;
  }
  return true;
}

/** One `assert[]` item: `{ type, value?, threshold?, weight?, metric?, grader? }`, validated against its check. */
export const assertionReader: Reader<Assertion> = (ctx, node, path) => {
  const issuesBefore = ctx.issues.length;
  const values = readMapping(ctx, node, path, ASSERTION_FIELDS);
  if (values === undefined || ctx.issues.length > issuesBefore) return undefined;
  const written = values['type'] as string;
  const { type, negate } = splitNegation(written);
  const assertion: Assertion = { type, negate, weight: (values['weight'] as number | undefined) ?? 1, at: positionOf(ctx, node) };
  if (values['value'] !== undefined) assertion.value = values['value'];
  if (values['threshold'] !== undefined) assertion.threshold = values['threshold'] as number;
  if (values['metric'] !== undefined) assertion.metric = values['metric'] as string;
  if (values['grader'] !== undefined) assertion.grader = values['grader'] as string;
  return checkAssertion(ctx, node, `${path}.type`, written, assertion) ? assertion : undefined;
};
