import { isPlainObject } from '../../core/json.js';
import { STEP_TYPES, type StepType } from '../../trace/step-type.js';
import { closestMatch } from '../../core/suggest.js';
import { partialMatch } from './json-checks.js';
import { needs, outcome, stringList, type CheckDefinition } from './check-definition.js';
import { countSteps, isStepType, tracedToolCalls } from './trace-view.js';

function names(calls: readonly { name: string }[]): string {
  return calls.length === 0 ? '(no tool calls)' : calls.map((c) => c.name).join(' → ');
}

/** True when `wanted` appears in `seen` in order (other calls may come between). */
function isSubsequence(wanted: readonly string[], seen: readonly string[]): boolean {
  let i = 0;
  for (const name of seen) if (name === wanted[i]) i++;
  return i === wanted.length;
}

function validateArgsMatch(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'needs a "value" mapping: { tool: name, args: { … } } or { <tool>: { … } }';
  if ('tool' in value || 'args' in value) {
    if (typeof value['tool'] !== 'string') return 'needs "value.tool", the tool name';
    if (!isPlainObject(value['args'])) return 'needs "value.args", a mapping of expected arguments';
    return Object.keys(value).every((k) => k === 'tool' || k === 'args') ? undefined : 'takes only "tool" and "args" in its value';
  }
  return Object.values(value).every(isPlainObject) ? undefined : 'needs a mapping from tool names to their expected arguments';
}

function stepBounds(value: unknown): { type?: StepType; min?: number; max?: number } | string {
  if (typeof value === 'number') return { max: value };
  if (!isPlainObject(value)) return 'needs a "value" of { type?, min?, max? } or a number (the maximum)';
  const { type, min, max, ...rest } = value;
  if (Object.keys(rest).length > 0) return `takes only type, min and max (got ${Object.keys(rest).join(', ')})`;
  if (type !== undefined && !isStepType(type)) {
    const close = closestMatch(typeof type === 'string' ? type : JSON.stringify(type), STEP_TYPES);
    return `has an unknown step type ${JSON.stringify(type)}${close === undefined ? '' : ` — did you mean "${close}"?`}`;
  }
  if ((min !== undefined && typeof min !== 'number') || (max !== undefined && typeof max !== 'number')) return 'needs numbers for min and max';
  if (min === undefined && max === undefined) return 'needs min or max';
  return { ...(type === undefined ? {} : { type: type }), ...(min === undefined ? {} : { min: min }), ...(max === undefined ? {} : { max: max }) };
}

/** Agent-native checks over the run's own trace: which tools ran, in what order, with which arguments, and how many steps. */
export const TOOL_CHECKS: readonly CheckDefinition[] = [
  {
    type: 'tool-used',
    description: 'every named tool was called (value: a name or a list); without a value, any tool',
    kind: 'deterministic',
    validate: (a) => (a.value === undefined ? undefined : needs.stringOrStrings(a)),
    run: (assertion, { result }) => {
      const calls = tracedToolCalls(result);
      if (assertion.value === undefined) return outcome(calls.length > 0, calls.length > 0 ? `tools called: ${names(calls)}` : 'no tool was called', { actual: names(calls) });
      const wanted = stringList(assertion.value);
      const missing = wanted.filter((name) => !calls.some((c) => c.name === name));
      return outcome(missing.length === 0, missing.length === 0 ? `called ${wanted.join(', ')}` : `never called ${missing.join(', ')}`, { expected: wanted.join(', '), actual: names(calls) });
    },
  },
  {
    type: 'tool-sequence',
    description: 'the tools were called in this order (other calls may come between; `exact: true` in a mapping value forbids them)',
    kind: 'deterministic',
    validate: (a) => {
      if (isPlainObject(a.value)) return needs.strings({ value: a.value['tools'] }) === undefined && (a.value['exact'] === undefined || typeof a.value['exact'] === 'boolean') ? undefined : 'needs { tools: [names], exact?: boolean } or a list of names';
      return needs.strings(a);
    },
    run: (assertion, { result }) => {
      const value = assertion.value;
      const exact = isPlainObject(value) && value['exact'] === true;
      const wanted = stringList(isPlainObject(value) ? value['tools'] : value);
      const calls = tracedToolCalls(result);
      const seen = calls.map((c) => c.name);
      const pass = exact ? seen.length === wanted.length && seen.every((n, i) => n === wanted[i]) : isSubsequence(wanted, seen);
      return outcome(pass, pass ? 'tools called in the expected order' : 'tool order differs', { expected: wanted.join(' → '), actual: names(calls) });
    },
  },
  {
    type: 'tool-args-match',
    description: 'a call of the tool had arguments containing the given ones ({ tool, args } or { <tool>: args })',
    kind: 'deterministic',
    validate: (a) => validateArgsMatch(a.value),
    run: (assertion, { result }) => {
      const value = assertion.value as Record<string, unknown>;
      const expectations: [string, unknown][] = 'tool' in value ? [[String(value['tool']), value['args']]] : Object.entries(value);
      const calls = tracedToolCalls(result);
      const failed: string[] = [];
      for (const [tool, args] of expectations) {
        if (!calls.some((c) => c.name === tool && partialMatch(args, c.args))) failed.push(`${tool}(${JSON.stringify(args)})`);
      }
      const actual = calls.map((c) => `${c.name}(${JSON.stringify(c.args)})`).join(', ') || '(no tool calls)';
      return outcome(failed.length === 0, failed.length === 0 ? 'tool arguments match' : `no call matched ${failed.join(', ')}`, { expected: expectations.map(([t, a]) => `${t}(${JSON.stringify(a)})`).join(', '), actual });
    },
  },
  {
    type: 'unique-tools',
    description: 'no tool was called twice with the same arguments',
    kind: 'deterministic',
    validate: needs.nothing,
    run: (_assertion, { result }) => {
      const seen = new Set<string>();
      const repeated: string[] = [];
      for (const call of tracedToolCalls(result)) {
        const key = `${call.name}(${JSON.stringify(call.args)})`;
        if (seen.has(key)) repeated.push(key);
        seen.add(key);
      }
      return outcome(repeated.length === 0, repeated.length === 0 ? 'no repeated tool call' : `repeated: ${repeated.join(', ')}`);
    },
  },
  {
    type: 'step-count',
    description: 'the number of trace steps (of `type`, one of the 27 step types) is within min..max',
    kind: 'deterministic',
    validate: (a) => {
      const bounds = stepBounds(a.value);
      return typeof bounds === 'string' ? bounds : undefined;
    },
    run: (assertion, { result }) => {
      const bounds = stepBounds(assertion.value) as { type?: StepType; min?: number; max?: number };
      const count = countSteps(result, bounds.type);
      const pass = (bounds.min === undefined || count >= bounds.min) && (bounds.max === undefined || count <= bounds.max);
      const expected = `${bounds.min ?? 0}..${bounds.max ?? '∞'} ${bounds.type ?? 'any'} steps`;
      return outcome(pass, `${count} ${bounds.type ?? ''} steps`.replace('  ', ' '), { expected, actual: String(count) });
    },
  },
  {
    type: 'iterations',
    description: 'the run used at most `threshold` (or `value`) loop iterations',
    kind: 'deterministic',
    validate: needs.positiveLimit,
    run: (assertion, { result }) => {
      const limit = Number(assertion.threshold ?? assertion.value);
      const pass = result.iterations <= limit;
      return outcome(pass, `${result.iterations} iteration(s), limit ${limit}`, { expected: `≤ ${limit}`, actual: String(result.iterations) });
    },
  },
];
