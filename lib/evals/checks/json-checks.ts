import { isPlainObject, type JsonSchema } from '../../core/json.js';
import { jsonEqual } from '../../tools/schema-utils.js';
import { validateJsonSchema } from '../../tools/validate-json-schema.js';
import { excerpt, outcome, type CheckDefinition } from './check-definition.js';

/** The JSON inside the output: the whole text, else the first fenced ```json block. */
export function parseJsonOutput(output: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const candidates = [output.trim()];
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/.exec(output);
  if (fenced?.[1] !== undefined) candidates.push(fenced[1].trim());
  let error = 'empty output';
  for (const text of candidates) {
    try {
      return { ok: true, value: JSON.parse(text) as unknown };
    } catch (e) {
      error = (e as Error).message;
    }
  }
  return { ok: false, error };
}

/**
 * True when `actual` contains `expected`: objects key by key (extra keys allowed), arrays item by
 * item with the same length, scalars equal.
 */
export function partialMatch(expected: unknown, actual: unknown): boolean {
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return false;
    return Object.entries(expected).every(([key, value]) => Object.hasOwn(actual, key) && partialMatch(value, actual[key]));
  }
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((value, i) => partialMatch(value, actual[i]));
  }
  return jsonEqual(expected, actual);
}

/** Checks of JSON output and structured output. */
export const JSON_CHECKS: readonly CheckDefinition[] = [
  {
    type: 'is-json',
    description: 'the output is JSON (optionally valid against the JSON Schema in `value`)',
    kind: 'deterministic',
    validate: (a) => (a.value === undefined || isPlainObject(a.value) ? undefined : 'takes an optional "value" JSON Schema (a mapping)'),
    run: (assertion, { output }) => {
      const parsed = parseJsonOutput(output);
      if (!parsed.ok) return outcome(false, `output is not JSON: ${parsed.error}`, { actual: excerpt(output) });
      if (assertion.value === undefined) return outcome(true, 'output is JSON');
      const issues = validateJsonSchema(assertion.value as JsonSchema, parsed.value);
      if (issues.length === 0) return outcome(true, 'output is JSON valid against the schema');
      const first = issues.slice(0, 3).map((i) => `${i.path.length === 0 ? '(root)' : i.path.join('.')}: ${i.message}`);
      return outcome(false, `output JSON does not match the schema: ${first.join('; ')}`, { actual: excerpt(output) });
    },
  },
  {
    type: 'parsed',
    description: "the run's structured output (`result.parsed`, else the output's JSON) contains the value (objects may have extra keys)",
    kind: 'deterministic',
    validate: (a) => (a.value === undefined ? 'needs a "value" (the expected structured output)' : undefined),
    run: (assertion, { result, output }) => {
      let actual: unknown = result.parsed;
      if (actual === undefined) {
        const parsed = parseJsonOutput(output);
        if (!parsed.ok) return outcome(false, 'the run has no structured output and its answer is not JSON', { expected: JSON.stringify(assertion.value), actual: excerpt(output) });
        actual = parsed.value;
      }
      const pass = partialMatch(assertion.value, actual);
      return outcome(pass, pass ? 'structured output matches' : 'structured output differs', { expected: JSON.stringify(assertion.value), actual: excerpt(JSON.stringify(actual)) });
    },
  },
];
