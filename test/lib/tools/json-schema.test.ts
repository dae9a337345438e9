import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { ToolValidationError } from '../../../lib/core/errors/tool-validation-error.js';
import type { JsonSchema } from '../../../lib/core/json.js';
import { normalizeJsonSchema, parametersToJsonSchema, tool } from '../../../lib/tools/index.js';

const schemaOf = (parameters: Parameters<typeof parametersToJsonSchema>[0]): JsonSchema => parametersToJsonSchema(parameters).schema;
const props = (schema: JsonSchema): Record<string, JsonSchema> => schema['properties'] as Record<string, JsonSchema>;

describe('zod → model-visible JSON Schema', () => {
  const params = z.object({
    query: z.string().describe('What to search for'),
    limit: z.number().int().min(1).default(10),
    language: z.string().optional(),
    sort: z.enum(['relevance', 'date']),
    mode: z.union([z.literal('fast'), z.literal('thorough')]).default('fast'),
    level: z.literal('basic'),
    tags: z.array(z.string()),
    anything: z.array(z.unknown()),
    filter: z.object({ from: z.string(), until: z.string().optional() }).optional(),
  });
  const schema = tool({ name: 'search', description: 'Search the documents', parameters: params, execute: () => '' }).parameters;

  test('is a top-level object schema without $schema', () => {
    assert.equal(schema['type'], 'object');
    assert.equal('$schema' in schema, false);
  });
  test('parameters with a default and .optional() ones are not required', () => {
    assert.deepEqual(schema['required'], ['query', 'sort', 'level', 'tags', 'anything']);
    assert.deepEqual(props(schema)['limit'], { type: 'integer', minimum: 1, default: 10 });
    assert.deepEqual(props(props(schema)['filter']!)['until'], { type: 'string' });
    assert.deepEqual(props(schema)['filter']!['required'], ['from']);
  });
  test('enums and literal unions emit enum (with a type)', () => {
    assert.deepEqual(props(schema)['sort'], { type: 'string', enum: ['relevance', 'date'] });
    assert.deepEqual(props(schema)['mode'], { type: 'string', enum: ['fast', 'thorough'], default: 'fast' });
    assert.deepEqual(props(schema)['level'], { type: 'string', enum: ['basic'] });
  });
  test('arrays always have items and descriptions are kept', () => {
    assert.deepEqual(props(schema)['tags'], { type: 'array', items: { type: 'string' } });
    assert.deepEqual(props(schema)['anything'], { type: 'array', items: {} });
    assert.deepEqual(props(schema)['query'], { type: 'string', description: 'What to search for' });
  });
  test('nullable literal unions become one enum including null', () => {
    const s = schemaOf(z.object({ unit: z.enum(['c', 'f']).nullable(), n: z.union([z.literal(1), z.literal(2)]) }));
    assert.deepEqual(props(s)['unit'], { type: ['string', 'null'], enum: ['c', 'f', null] });
    assert.deepEqual(props(s)['n'], { type: 'number', enum: [1, 2] });
  });
  test('tuples get items (the union of their members)', () => {
    const s = schemaOf(z.object({ point: z.tuple([z.number(), z.string()]) }));
    assert.deepEqual(props(s)['point']!['items'], { anyOf: [{ type: 'number' }, { type: 'string' }] });
  });
  test('dates are ISO strings; other unrepresentable types do not crash', () => {
    const s = schemaOf(z.object({ when: z.coerce.date(), fn: z.custom<() => void>() }));
    assert.deepEqual(props(s)['when'], { type: 'string', format: 'date-time' });
    assert.deepEqual(props(s)['fn'], {});
  });
  test('the input side of transforms is described', () => {
    const s = schemaOf(z.object({ n: z.string().transform((v) => v.length) }));
    assert.deepEqual(props(s)['n'], { type: 'string' });
  });
});

describe('plain JSON Schema parameters', () => {
  test('are taken as they are, copied, with the same normalisation', () => {
    const input: JsonSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        days: { type: 'integer', default: 3 },
        tags: { type: 'array' },
        matrix: { type: 'array', items: { type: 'array' } },
        nested: { type: 'object', properties: { list: { type: 'array' } } },
        kind: { const: 'weather' },
      },
      required: ['city', 'days'],
      additionalProperties: false,
    };
    const before = structuredClone(input);
    const s = schemaOf(input);
    assert.deepEqual(input, before, 'the input is not modified');
    assert.equal('$schema' in s, false);
    assert.deepEqual(s['required'], ['city'], 'a parameter with a default is optional');
    assert.deepEqual(props(s)['tags'], { type: 'array', items: {} });
    assert.deepEqual(props(s)['matrix'], { type: 'array', items: { type: 'array', items: {} } });
    assert.deepEqual(props(props(s)['nested']!)['list'], { type: 'array', items: {} });
    assert.deepEqual(props(s)['kind'], { enum: ['weather'], type: 'string' });
    assert.equal(s['additionalProperties'], false);
    assert.deepEqual(props(s)['city'], { type: 'string', description: 'City name' });
  });
  test('a schema with properties but no type is treated as an object; properties/required are always present', () => {
    assert.deepEqual(schemaOf({ properties: { a: { type: 'string' } } }), { properties: { a: { type: 'string' } }, type: 'object', required: [] });
    assert.deepEqual(schemaOf({ type: 'object' }), { type: 'object', properties: {}, required: [] });
  });
  test('draft-07 tuple items are converted', () => {
    const out = normalizeJsonSchema({ type: 'array', items: [{ type: 'string' }] }, []);
    assert.deepEqual(out, { type: 'array', prefixItems: [{ type: 'string' }], items: {} });
  });
});

describe('other Standard Schemas', () => {
  function fake(converter?: StandardJSONSchemaV1.Converter): StandardSchemaV1<{ a: string }> {
    const props: Record<string, unknown> = { version: 1, vendor: 'fake', validate: (value: unknown) => ({ value }) };
    if (converter) props['jsonSchema'] = converter;
    return { '~standard': props } as unknown as StandardSchemaV1<{ a: string }>;
  }
  test('use ~standard.jsonSchema.input (Standard JSON Schema) when present', () => {
    let target: string | undefined;
    const s = schemaOf(
      fake({
        input: (options) => {
          target = options.target;
          return { $schema: 'x', type: 'object', properties: { a: { type: 'string' }, b: { type: 'array' } }, required: ['a'] };
        },
        output: () => ({}),
      }),
    );
    assert.equal(target, 'draft-2020-12');
    assert.deepEqual(s, { type: 'object', properties: { a: { type: 'string' }, b: { type: 'array', items: {} } }, required: ['a'] });
  });
  test('a converter that throws gives a clear ToolValidationError', () => {
    assert.throws(
      () => parametersToJsonSchema(fake({ input: () => { throw new Error('nope'); }, output: () => ({}) }), 'x'),
      (error: unknown) => ToolValidationError.isInstance(error) && /parameters of tool "x".*cannot be converted.*nope/.test(error.message),
    );
  });
});
