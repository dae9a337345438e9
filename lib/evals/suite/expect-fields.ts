import { plain } from '../../config/read-collections.js';
import { describeValue, report } from '../../config/read-context.js';
import type { FieldSpec, FieldTable } from '../../config/readers.js';
import type { Assertion } from '../types.js';
import { checkAssertion, positionOf } from './assertion-reader.js';

type Built = Omit<Assertion, 'weight' | 'at'> | undefined;

/**
 * A spec-style `expect_*` key: its raw value becomes one assertion of the promptfoo vocabulary
 * (`build` returns undefined for a value that asks for nothing, like `expect_unique_tools: false`,
 * or a string saying what the value should be).
 */
function expect(description: string, type: string, build: (value: unknown) => Built | string): FieldSpec {
  return {
    type: 'see description',
    description: `${description} (same as assertion \`${type}\`)`,
    read: (ctx, node, path) => {
      const raw = plain(ctx, node, path);
      if (raw === undefined) return undefined;
      const built = build(raw);
      if (typeof built === 'string') {
        report(ctx, node, path, `"${path}" ${built}; got ${describeValue(raw)}`);
        return undefined;
      }
      if (built === undefined) return [];
      const assertion: Assertion = { ...built, weight: 1, at: positionOf(ctx, node) };
      const written = `${built.negate ? 'not-' : ''}${built.type}`;
      return checkAssertion(ctx, node, path, written, assertion) ? [assertion] : undefined;
    },
  };
}

const is = (type: string, value?: unknown, negate = false): Built => ({ type, negate, ...(value === undefined ? {} : { value }) });
const flag = (type: string) => (value: unknown): Built | string => (typeof value !== 'boolean' ? 'must be true or false' : value ? is(type) : undefined);
const limit = (type: string) => (value: unknown): Built | string => (typeof value === 'number' ? { type, negate: false, threshold: value } : 'must be a number');

/** The spec's TestCase `expect_*` fields, each read into an assertion. */
export const EXPECT_FIELDS: FieldTable = {
  expect_tool: expect('this tool was called', 'tool-used', (v) => is('tool-used', v)),
  expect_tools: expect('every listed tool was called', 'tool-used', (v) => is('tool-used', v)),
  expect_tool_args: expect('a call had these arguments: { tool: args } or { tool, args }', 'tool-args-match', (v) => is('tool-args-match', v)),
  expect_tool_order: expect('the tools were called in this order', 'tool-sequence', (v) => is('tool-sequence', v)),
  expect_unique_tools: expect('true: no tool call was repeated', 'unique-tools', flag('unique-tools')),
  expect_output: expect('the answer equals this text', 'equals', (v) => is('equals', v)),
  expect_output_regex: expect('the answer matches this regular expression', 'regex', (v) => is('regex', v)),
  expect_contains: expect('the answer contains this text (or every listed one), ignoring case', 'icontains-all', (v) => is('icontains-all', v)),
  expect_not_contains: expect('the answer contains none of these, ignoring case', 'not-icontains-any', (v) => is('icontains-any', v, true)),
  expect_starts_with: expect('the answer starts with this text', 'starts-with', (v) => is('starts-with', v)),
  expect_ends_with: expect('the answer ends with this text', 'ends-with', (v) => is('ends-with', v)),
  expect_json: expect('true: the answer is JSON; a mapping: JSON valid against this schema', 'is-json', (v) =>
    v === true ? is('is-json') : v === false ? undefined : typeof v === 'object' && v !== null && !Array.isArray(v) ? is('is-json', v) : 'must be true or a JSON Schema mapping'),
  expect_parsed: expect('the structured output contains this value', 'parsed', (v) => is('parsed', v)),
  expect_min_length: expect('the answer has at least this many characters', 'length', (v) => (typeof v === 'number' ? is('length', { min: v }) : 'must be a number')),
  expect_max_length: expect('the answer has at most this many characters', 'length', (v) => (typeof v === 'number' ? is('length', { max: v }) : 'must be a number')),
  expect_min_words: expect('the answer has at least this many words', 'words', (v) => (typeof v === 'number' ? is('words', { min: v }) : 'must be a number')),
  expect_max_words: expect('the answer has at most this many words', 'words', (v) => (typeof v === 'number' ? is('words', { max: v }) : 'must be a number')),
  expect_no_pii: expect('true: the answer leaks no personal data', 'pii-leak', flag('pii-leak')),
  expect_no_injection: expect('true: the answer shows no sign a prompt injection worked', 'injection-resistance', flag('injection-resistance')),
  expect_refusal: expect('true: the answer is a refusal; false: it is not', 'refusal', (v) => (typeof v !== 'boolean' ? 'must be true or false' : is('refusal', undefined, !v))),
  expect_iterations_lte: expect('the run used at most this many iterations', 'iterations', limit('iterations')),
  expect_latency_ms_lte: expect('the run took at most this many milliseconds', 'latency', limit('latency')),
  expect_cost_usd_lte: expect('the run cost at most this many US dollars', 'cost', limit('cost')),
};
