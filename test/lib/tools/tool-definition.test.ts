import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ToolValidationError } from '../../../lib/core/errors/tool-validation-error.js';
import { isTool, tool } from '../../../lib/tools/index.js';
import type { ToolDefinition, ToolParameters } from '../../../lib/tools/index.js';

const base = { name: 'search', description: 'Search the knowledge base', execute: () => 'ok' };

/** Asserts that defining the tool throws a ToolValidationError whose message matches. */
function rejects(definition: Record<string, unknown>, pattern: RegExp): ToolValidationError {
  let caught: unknown;
  try {
    tool(definition as unknown as ToolDefinition<ToolParameters>);
  } catch (error) {
    caught = error;
  }
  assert.ok(ToolValidationError.isInstance(caught), `expected a ToolValidationError, got ${String(caught)}`);
  assert.match(caught.message, pattern);
  return caught;
}

describe('tool(): name', () => {
  test('accepts identifiers of 1 to 64 characters', () => {
    for (const name of ['a', '_x', 'get_weather2', 'A'.repeat(64)]) assert.equal(tool({ ...base, name }).name, name);
  });
  test('rejects empty, too long and non-identifier names', () => {
    rejects({ ...base, name: '' }, /needs a name/);
    rejects({ ...base, name: undefined }, /needs a name/);
    rejects({ ...base, name: 'a'.repeat(65) }, /65 characters.*limit is 64/);
    for (const name of ['1abc', 'get-weather', 'get weather', 'émoji', 'a.b']) {
      const error = rejects({ ...base, name }, /not an identifier/);
      assert.equal(error.toolName, name);
    }
  });
});

describe('tool(): description and execute', () => {
  test('description is required and 10–1024 characters', () => {
    rejects({ ...base, description: undefined }, /needs a description/);
    rejects({ ...base, description: '   ' }, /needs a description/);
    rejects({ ...base, description: 'too short' }, /9 characters long; it must be 10–1024/);
    rejects({ ...base, description: 'x'.repeat(1025) }, /1025 characters/);
    assert.equal(tool({ ...base, description: 'x'.repeat(10) }).description.length, 10);
    assert.equal(tool({ ...base, description: 'x'.repeat(1024) }).description.length, 1024);
  });
  test('execute must be a function', () => {
    rejects({ ...base, execute: undefined }, /needs an execute function/);
    rejects({ ...base, execute: 'run' }, /needs an execute function/);
  });
  test('a definition that is not an object is rejected', () => {
    assert.throws(() => tool(null as unknown as ToolDefinition), ToolValidationError);
  });
  test('misspelled or foreign keys that would silently drop something are rejected with a suggestion', () => {
    const typo = rejects({ ...base, cachable: true }, /unknown option "cachable" .*did you mean "cacheable"\?/i);
    assert.equal(typo.suggestion, 'cacheable');
    rejects({ ...base, params: z.object({ q: z.string() }) }, /did you mean "parameters"/);
    rejects({ ...base, handler: () => 1 }, /did you mean "execute"/);
    assert.equal(tool({ ...base, source: 'mcp' } as ToolDefinition).name, 'search');
  });
});

describe('tool(): parameters', () => {
  test('omitted parameters give an empty object schema', async () => {
    const t = tool(base);
    assert.deepEqual(t.parameters, { type: 'object', properties: {}, required: [] });
    assert.deepEqual(await t.validateArgs({}), { ok: true, value: {} });
  });
  test('must describe an object', () => {
    rejects({ ...base, parameters: z.string() }, /must describe an object.*"string"/);
    rejects({ ...base, parameters: z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]) }, /must describe an object.*union/);
    rejects({ ...base, parameters: { type: 'array', items: {} } }, /must describe an object/);
    rejects({ ...base, parameters: 42 }, /expected a zod schema, a Standard Schema or a JSON Schema object/);
  });
  test('a JSON Schema whose required names an undeclared property is a signature mismatch', () => {
    const error = rejects(
      { ...base, parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query', 'limit'] } },
      /signature mismatch: required parameter "limit" is not declared/,
    );
    assert.equal(error.toolName, 'search');
    assert.equal(error.issues.length, 1);
  });
  test('duplicate parameters are rejected (repeated in required, or differing only by case)', () => {
    rejects({ ...base, parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q', 'q'] } }, /duplicate parameter "q"/);
    rejects({ ...base, parameters: z.object({ city: z.string(), City: z.string() }) }, /duplicate parameter "City".*only by case/);
  });
  test('an invalid pattern is caught at definition time', () => {
    rejects({ ...base, parameters: { type: 'object', properties: { q: { type: 'string', pattern: '([a-z' } } } }, /invalid pattern/);
  });
  test('a Standard Schema without JSON Schema support asks for a JSON Schema', () => {
    const opaque: StandardSchemaV1<{ q: string }> = {
      '~standard': { version: 1, vendor: 'opaque', validate: (value) => ({ value: value as { q: string } }) },
    };
    rejects({ ...base, parameters: opaque }, /vendor "opaque".*pass a JSON Schema object as parameters/);
  });
});

describe('tool(): options', () => {
  test('defaults: switches off, cacheTtl 300 s', () => {
    const t = tool(base);
    assert.deepEqual(
      { screenOutput: t.screenOutput, terminal: t.terminal, requiresApproval: t.requiresApproval, cacheable: t.cacheable, cacheTtl: t.cacheTtl },
      { screenOutput: false, terminal: false, requiresApproval: false, cacheable: false, cacheTtl: 300 },
    );
  });
  test('options are kept', () => {
    const t = tool({ ...base, screenOutput: true, terminal: true, requiresApproval: true, cacheable: true, cacheTtl: 12.5 });
    assert.deepEqual([t.screenOutput, t.terminal, t.requiresApproval, t.cacheable, t.cacheTtl], [true, true, true, true, 12.5]);
  });
  test('cacheTtl must be > 0 and switches must be booleans', () => {
    for (const cacheTtl of [0, -1, Number.NaN, Infinity, '60']) rejects({ ...base, cacheTtl }, /cacheTtl.*> 0/);
    rejects({ ...base, terminal: 'yes' }, /"terminal".*must be a boolean/);
  });
  test('withOptions returns a changed copy and leaves the original alone', async () => {
    const t = tool({ ...base, parameters: z.object({ q: z.string() }), execute: ({ q }) => q.toUpperCase(), cacheable: true, cacheTtl: 60 });
    const copy = t.withOptions({ terminal: true, cacheTtl: 5 });
    assert.notEqual(copy, t);
    assert.ok(isTool(copy));
    assert.deepEqual([copy.terminal, copy.cacheable, copy.cacheTtl], [true, true, 5]);
    assert.deepEqual([t.terminal, t.cacheTtl], [false, 60]);
    assert.equal(copy.parameters, t.parameters);
    const ctx = { signal: new AbortController().signal, runId: 'r', callId: 'c', toolName: 'search', context: undefined };
    assert.equal((await copy.invoke({ q: 'a' }, ctx)).content, 'A');
    assert.throws(() => t.withOptions({ cacheTtl: 0 }), ToolValidationError);
  });
});

describe('isTool and the tool object', () => {
  test('isTool recognises tools by their Symbol.for brand only', () => {
    const t = tool(base);
    assert.equal(isTool(t), true);
    assert.equal((t as unknown as Record<symbol, unknown>)[Symbol.for('agentlib.tool')], true);
    for (const value of [base, null, undefined, 'search', { name: 'search', execute() {} }]) assert.equal(isTool(value), false);
  });
  test('a tool is immutable and toSpec returns an independent copy', () => {
    const t = tool({ ...base, parameters: z.object({ q: z.string().describe('query text') }) });
    assert.throws(() => {
      (t as unknown as { terminal: boolean }).terminal = true;
    }, TypeError);
    const spec = t.toSpec();
    assert.deepEqual(spec, { name: 'search', description: 'Search the knowledge base', parameters: t.parameters });
    (spec.parameters['properties'] as Record<string, unknown>)['q'] = 'changed';
    assert.deepEqual((t.parameters['properties'] as Record<string, unknown>)['q'], { type: 'string', description: 'query text' });
  });
});

test('a JSON Schema that requires a parameter it never declares is rejected', async () => {
  const { tool } = await import('../../../lib/tools/tool.js');
  assert.throws(
    () => tool({ name: 'no_props', description: 'Requires an undeclared city', parameters: { type: 'object', required: ['city'] }, execute: () => 'x' }),
    /required parameter "city" is not declared/,
  );
});
