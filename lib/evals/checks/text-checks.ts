import type { Assertion } from '../types.js';
import { excerpt, needs, outcome, stringList, type CheckDefinition } from './check-definition.js';

function containsCheck(type: string, description: string, mode: 'one' | 'any' | 'all', fold: boolean): CheckDefinition {
  const norm = (s: string): string => (fold ? s.toLowerCase() : s);
  return {
    type,
    description,
    kind: 'deterministic',
    validate: mode === 'one' ? needs.string : needs.stringOrStrings,
    run: (assertion, { output }) => {
      const wanted = stringList(assertion.value);
      const text = norm(output);
      const found = wanted.filter((w) => text.includes(norm(w)));
      const pass = mode === 'all' ? found.length === wanted.length : found.length > 0;
      const missing = wanted.filter((w) => !found.includes(w));
      const reason = pass
        ? `output contains ${found.map((f) => JSON.stringify(f)).join(', ')}`
        : mode !== 'any'
          ? `output lacks ${missing.map((m) => JSON.stringify(m)).join(', ')}`
          : `output contains none of ${wanted.map((w) => JSON.stringify(w)).join(', ')}`;
      return outcome(pass, reason, { expected: wanted.join(' | '), actual: excerpt(output) });
    },
  };
}

function compileRegex(assertion: Pick<Assertion, 'value'>): RegExp {
  const source = String(assertion.value);
  const literal = /^\/(.*)\/([dgimsuy]*)$/s.exec(source);
  return literal ? new RegExp(literal[1] ?? '', literal[2]) : new RegExp(source);
}

/** Bounds `{ min?, max? }` or a number (a maximum). */
function readBounds(value: unknown): { min?: number; max?: number } | undefined {
  if (typeof value === 'number') return { max: value };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { min, max, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return undefined;
  if (min !== undefined && typeof min !== 'number') return undefined;
  if (max !== undefined && typeof max !== 'number') return undefined;
  if (min === undefined && max === undefined) return undefined;
  return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

function boundsCheck(type: string, unit: string, measure: (output: string) => number): CheckDefinition {
  return {
    type,
    description: `the output's ${unit} count is within { min, max } (a number is a maximum)`,
    kind: 'deterministic',
    validate: (a) => (readBounds(a.value) === undefined ? `needs a "value" of { min, max } or a number (the maximum ${unit} count)` : undefined),
    run: (assertion, { output }) => {
      const bounds = readBounds(assertion.value) ?? {};
      const count = measure(output);
      const pass = (bounds.min === undefined || count >= bounds.min) && (bounds.max === undefined || count <= bounds.max);
      const expected = `${bounds.min ?? 0}..${bounds.max ?? '∞'} ${unit}`;
      return outcome(pass, `${count} ${unit}${pass ? '' : `, expected ${expected}`}`, { expected, actual: String(count) });
    },
  };
}

/** Checks over the answer text. */
export const TEXT_CHECKS: readonly CheckDefinition[] = [
  {
    type: 'equals',
    description: 'the output equals the value (surrounding whitespace ignored)',
    kind: 'deterministic',
    validate: needs.string,
    run: (assertion, { output }) => {
      const expected = String(assertion.value);
      const pass = output.trim() === expected.trim();
      return outcome(pass, pass ? 'output equals the expected text' : 'output differs from the expected text', { expected: excerpt(expected), actual: excerpt(output) });
    },
  },
  containsCheck('contains', 'the output contains the value', 'one', false),
  containsCheck('icontains', 'the output contains the value, ignoring case', 'one', true),
  containsCheck('contains-any', 'the output contains at least one of the values', 'any', false),
  containsCheck('contains-all', 'the output contains every value', 'all', false),
  containsCheck('icontains-any', 'the output contains at least one of the values, ignoring case', 'any', true),
  containsCheck('icontains-all', 'the output contains every value, ignoring case', 'all', true),
  {
    type: 'regex',
    description: 'the output matches the regular expression (`/re/flags` or a bare pattern)',
    kind: 'deterministic',
    validate: (a) => {
      if (needs.string(a) !== undefined) return 'needs a "value" regular expression';
      try {
        compileRegex(a);
        return undefined;
      } catch (error) {
        return `has an invalid regular expression: ${(error as Error).message}`;
      }
    },
    run: (assertion, { output }) => {
      const pass = compileRegex(assertion).test(output);
      return outcome(pass, pass ? `output matches ${String(assertion.value)}` : `output does not match ${String(assertion.value)}`, { expected: String(assertion.value), actual: excerpt(output) });
    },
  },
  {
    type: 'starts-with',
    description: 'the output starts with the value (leading whitespace ignored)',
    kind: 'deterministic',
    validate: needs.string,
    run: (assertion, { output }) => {
      const pass = output.trimStart().startsWith(String(assertion.value));
      return outcome(pass, pass ? 'output starts with the value' : 'output does not start with the value', { expected: String(assertion.value), actual: excerpt(output, 60) });
    },
  },
  {
    type: 'ends-with',
    description: 'the output ends with the value (trailing whitespace ignored)',
    kind: 'deterministic',
    validate: needs.string,
    run: (assertion, { output }) => {
      const pass = output.trimEnd().endsWith(String(assertion.value));
      return outcome(pass, pass ? 'output ends with the value' : 'output does not end with the value', { expected: String(assertion.value), actual: excerpt(output.slice(-60)) });
    },
  },
  boundsCheck('length', 'characters', (output) => [...output.trim()].length),
  boundsCheck('words', 'words', (output) => output.trim().split(/\s+/).filter((w) => w !== '').length),
];
