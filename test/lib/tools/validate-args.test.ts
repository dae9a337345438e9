import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { ToolValidationError } from '../../../lib/core/errors/tool-validation-error.js';
import type { JsonSchema } from '../../../lib/core/json.js';
import { tool, validateJsonSchema } from '../../../lib/tools/index.js';
import type { Tool, ToolArgsResult, ToolParameters } from '../../../lib/tools/index.js';

const make = (parameters?: ToolParameters): Tool =>
  tool({ name: 'search', description: 'Search the documents', ...(parameters === undefined ? {} : { parameters }), execute: () => '' }) as Tool;

function errorOf(result: ToolArgsResult<unknown>): ToolValidationError {
  assert.equal(result.ok, false, 'expected a validation failure');
  if (result.ok) throw new Error('unreachable');
  assert.ok(ToolValidationError.isInstance(result.error));
  assert.equal(result.error.toolName, 'search');
  return result.error;
}

const zodTool = make(
  z.object({
    query: z.string(),
    limit: z.number().int().default(5),
    exact: z.boolean().optional(),
    ratio: z.number().optional(),
    id: z.union([z.string(), z.number()]).optional(),
  }),
);
const jsonTool = make({
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 2, maxLength: 20, pattern: '^[a-z ]+$' },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 5 },
    exact: { type: 'boolean' },
    sort: { type: 'string', enum: ['asc', 'desc'] },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
    range: { type: 'object', properties: { from: { type: 'number' } }, required: ['from'] },
    key: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    meta: { type: 'object', additionalProperties: { type: 'number' } },
  },
  required: ['query'],
  additionalProperties: false,
});

describe('raw arguments', () => {
  test('a JSON string is parsed', async () => {
    assert.deepEqual(await zodTool.validateArgs('{"query":"cats"}'), { ok: true, value: { query: 'cats', limit: 5 } });
  });
  test('malformed JSON is a clear error, never {}', async () => {
    const error = errorOf(await zodTool.validateArgs('{"query": "cats"'));
    assert.match(error.message, /^arguments are not valid JSON: /);
    const noRequired = make(z.object({ q: z.string().optional() }));
    errorOf(await noRequired.validateArgs('{oops}'));
  });
  test('non-objects are rejected; empty input means no arguments', async () => {
    assert.match(errorOf(await zodTool.validateArgs([1])).message, /must be a JSON object, got array/);
    assert.match(errorOf(await zodTool.validateArgs('"text"')).message, /got string/);
    assert.match(errorOf(await zodTool.validateArgs(7)).message, /got number/);
    const none = make(undefined);
    for (const raw of [undefined, null, '', '  ']) assert.deepEqual(await none.validateArgs(raw), { ok: true, value: {} });
  });
  test('the raw arguments are not mutated', async () => {
    const raw = { query: 'cats', limit: '7' };
    await zodTool.validateArgs(raw);
    assert.deepEqual(raw, { query: 'cats', limit: '7' });
  });
});

describe('coercion', () => {
  test('"42" becomes 42 for number/integer parameters (zod and JSON Schema)', async () => {
    assert.deepEqual(await zodTool.validateArgs({ query: 'a', limit: '42', ratio: ' 0.5 ' }), { ok: true, value: { query: 'a', limit: 42, ratio: 0.5 } });
    const result = await jsonTool.validateArgs({ query: 'ab', limit: '42' });
    assert.deepEqual(result, { ok: true, value: { query: 'ab', limit: 42 } });
  });
  test('"true"/"false" become booleans for boolean parameters', async () => {
    assert.deepEqual(await zodTool.validateArgs({ query: 'a', exact: 'true' }), { ok: true, value: { query: 'a', exact: true, limit: 5 } });
    assert.deepEqual(await jsonTool.validateArgs({ query: 'ab', exact: 'False' }), { ok: true, value: { query: 'ab', exact: false, limit: 5 } });
  });
  test('no coercion when the type is ambiguous or the text is not a plain number', async () => {
    assert.deepEqual(await zodTool.validateArgs({ query: 'a', id: '42' }), { ok: true, value: { query: 'a', id: '42', limit: 5 } });
    for (const limit of ['0x10', '4.5', '', 'Infinity', '1e999']) errorOf(await zodTool.validateArgs({ query: 'a', limit }));
  });
  test('booleans are rejected for number and integer parameters, even with z.coerce.number()', async () => {
    assert.match(errorOf(await zodTool.validateArgs({ query: 'a', limit: true })).message, /limit: expected integer, got boolean/);
    assert.match(errorOf(await jsonTool.validateArgs({ query: 'ab', limit: false })).message, /expected integer, got boolean/);
    const coercing = make(z.object({ n: z.coerce.number() }));
    assert.match(errorOf(await coercing.validateArgs({ n: true })).message, /got boolean/);
    assert.deepEqual(await coercing.validateArgs({ n: '3' }), { ok: true, value: { n: 3 } });
  });
  test('nested values and array items are coerced; JSON text for an array/object parameter is parsed', async () => {
    const nested = make(z.object({ filter: z.object({ max: z.number(), ids: z.array(z.number()) }) }));
    assert.deepEqual(await nested.validateArgs({ filter: { max: '9', ids: ['1', 2] } }), { ok: true, value: { filter: { max: 9, ids: [1, 2] } } });
    assert.deepEqual(await nested.validateArgs({ filter: '{"max": 1, "ids": "[3]"}' }), { ok: true, value: { filter: { max: 1, ids: [3] } } });
  });
  test('null for an optional parameter that does not accept null counts as absent (its default applies)', async () => {
    assert.deepEqual(await zodTool.validateArgs({ query: 'a', limit: null, exact: null }), { ok: true, value: { query: 'a', limit: 5 } });
    errorOf(await zodTool.validateArgs({ query: null }));
  });
});

describe('parameter names', () => {
  test('a mistyped name gets a did-you-mean suggestion', async () => {
    const error = errorOf(await zodTool.validateArgs({ qurey: 'cats' }));
    assert.equal(error.message, 'unknown parameter "qurey" — did you mean "query"?');
    assert.equal(error.suggestion, 'query');
    assert.deepEqual(error.issues, [{ path: ['qurey'], message: 'unknown parameter "qurey" — did you mean "query"?' }]);
    assert.equal(errorOf(await jsonTool.validateArgs({ qeury: 'cats' })).suggestion, 'query');
  });
  test('other unknown names follow additionalProperties', async () => {
    assert.deepEqual(await zodTool.validateArgs({ query: 'a', zzz: 1 }), { ok: true, value: { query: 'a', limit: 5 } });
    const strict = make(z.strictObject({ query: z.string() }));
    assert.match(errorOf(await strict.validateArgs({ query: 'a', zzz: 1 })).message, /unknown parameter "zzz" \(known parameters: query\)/);
    assert.match(errorOf(await jsonTool.validateArgs({ query: 'ab', zzz: 1 })).message, /unknown parameter "zzz"/);
    const open = make({ type: 'object', properties: { a: { type: 'string' } } });
    assert.deepEqual(await open.validateArgs({ a: 'x', extra: 1 }), { ok: true, value: { a: 'x', extra: 1 } });
  });
  test('a missing required parameter is named', async () => {
    const error = errorOf(await zodTool.validateArgs({}));
    assert.equal(error.message, 'missing required parameter "query"');
    assert.deepEqual(error.issues, [{ path: ['query'], message: 'missing required parameter "query"' }]);
    assert.equal(errorOf(await jsonTool.validateArgs({})).message, 'missing required parameter "query"');
  });
});

describe('validation', () => {
  test('every problem is listed with its path', async () => {
    const error = errorOf(
      await jsonTool.validateArgs({ query: 'a', limit: 99, sort: 'up', tags: ['a', 2, 'c'], range: {}, key: true, meta: { x: 'y' }, qurey: 1 }),
    );
    const byPath = Object.fromEntries(error.issues.map((issue) => [issue.path.join('.'), issue.message]));
    assert.deepEqual(Object.keys(byPath).sort(), ['key', 'limit', 'meta.x', 'query', 'qurey', 'range.from', 'sort', 'tags', 'tags.1'].sort());
    assert.match(byPath['qurey']!, /^unknown parameter "qurey" \(known parameters: /, 'no suggestion for a parameter that was given');
    assert.match(byPath['limit']!, /<= 50/);
    assert.match(byPath['sort']!, /one of "asc", "desc"/);
    assert.match(byPath['tags.1']!, /expected string, got number/);
    assert.match(byPath['tags']!, /at most 2 items/);
    assert.match(byPath['range.from']!, /missing required parameter "from"/);
    assert.match(byPath['query']!, /at least 2 characters/);
    assert.match(error.message, /range: missing required parameter "from"/);
    assert.match(error.message, /tags\[1\]: expected string, got number/);
  });
  test('JSON Schema: pattern, anyOf and defaults (copied, not shared)', async () => {
    assert.match(errorOf(await jsonTool.validateArgs({ query: 'ab1' })).message, /pattern/);
    assert.equal((await jsonTool.validateArgs({ query: 'ab', key: 3 })).ok, true);
    const withDefault = make({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, default: ['x'] } } });
    const first = await withDefault.validateArgs({});
    assert.deepEqual(first, { ok: true, value: { tags: ['x'] } });
    first.value.tags.push('mutated');
    assert.deepEqual(await withDefault.validateArgs({}), { ok: true, value: { tags: ['x'] } });
  });
  test('zod: the value is the parsed output (defaults, transforms); zod issues keep their paths', async () => {
    const t = make(z.object({ name: z.string().transform((s) => s.toUpperCase()), size: z.enum(['s', 'm']).default('m'), items: z.array(z.object({ n: z.number() })) }));
    assert.deepEqual(await t.validateArgs({ name: 'ab', items: [{ n: '1' }] }), { ok: true, value: { name: 'AB', size: 'm', items: [{ n: 1 }] } });
    const error = errorOf(await t.validateArgs({ name: 'ab', size: 'xl', items: [{ n: 'x' }] }));
    assert.deepEqual(error.issues.map((issue) => issue.path), [['size'], ['items', 0, 'n']]);
  });
  test('async refinements work', async () => {
    const t = make(z.object({ user: z.string().refine(async (v) => Promise.resolve(v !== 'root'), 'root is not allowed') }));
    assert.equal((await t.validateArgs({ user: 'ann' })).ok, true);
    assert.match(errorOf(await t.validateArgs({ user: 'root' })).message, /user: root is not allowed/);
  });
  test('never throws, even when the schema library does', async () => {
    const exploding = {
      '~standard': {
        version: 1 as const,
        vendor: 'boom',
        validate: (): never => {
          throw new Error('kaboom');
        },
        jsonSchema: { input: () => ({ type: 'object', properties: {} }), output: () => ({}) },
      },
    };
    const error = errorOf(await make(exploding).validateArgs({}));
    assert.match(error.message, /kaboom/);
  });
});

describe('safety', () => {
  test('__proto__ and inherited names never reach the prototype chain', async () => {
    const open = make({ type: 'object', properties: { constructor: { type: 'string' }, query: { type: 'string' } }, required: ['constructor'] });
    assert.equal(errorOf(await open.validateArgs({ query: 'x' })).message, 'missing required parameter "constructor"');
    const result = await open.validateArgs('{"constructor":"c","__proto__":{"polluted":true}}');
    assert.ok(result.ok);
    assert.equal(Object.getPrototypeOf(result.value), Object.prototype);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.equal(result.value['polluted'], undefined);
  });
});

describe('validateJsonSchema keywords', () => {
  const check = (schema: JsonSchema, value: unknown): string[] => validateJsonSchema(schema, value).map((i) => `${i.path.join('.')}|${i.message}`);
  test('oneOf, allOf, not, const, $ref', () => {
    const oneOf = { oneOf: [{ type: 'integer' }, { type: 'number', minimum: 0 }] };
    assert.deepEqual(check(oneOf, -1.5), ['|does not match any of the allowed forms']);
    assert.deepEqual(check(oneOf, 3), ['|matches more than one of the allowed forms']);
    assert.deepEqual(check(oneOf, 0.5), []);
    assert.deepEqual(check({ allOf: [{ minLength: 2 }, { maxLength: 3 }] }, 'abcd'), ['|must be at most 3 characters long']);
    assert.deepEqual(check({ not: { type: 'null' } }, null), ['|matches a form that is not allowed']);
    assert.deepEqual(check({ const: 'x' }, 'y'), ['|must be "x"']);
    const withRef = { type: 'object', properties: { p: { $ref: '#/$defs/point' } }, $defs: { point: { type: 'object', required: ['x'] } } };
    assert.deepEqual(check(withRef, { p: {} }), ['p.x|missing required parameter "x"']);
    assert.deepEqual(check({ $ref: '#/nowhere' }, 1), ['|cannot resolve schema reference #/nowhere']);
  });
  test('numbers, arrays and integers', () => {
    assert.deepEqual(check({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }, 1), ['|must be < 1']);
    assert.deepEqual(check({ type: 'number', multipleOf: 0.1 }, 0.3), []);
    assert.deepEqual(check({ type: 'number', multipleOf: 5 }, 7), ['|must be a multiple of 5']);
    assert.deepEqual(check({ type: 'integer' }, 1.5), ['|expected integer, got 1.5']);
    assert.deepEqual(check({ type: 'array', uniqueItems: true, minItems: 3, items: {} }, [1, 1]), ['|must have at least 3 items', '|must not contain duplicate items']);
    assert.deepEqual(check({ type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'number' } }, ['a', 1, 'b']), ['2|expected number, got string']);
    assert.deepEqual(check({ type: 'string' }, true), ['|expected string, got boolean']);
    assert.deepEqual(check({ type: ['string', 'null'] }, null), []);
  });
});
