import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { Agent } from '../../../../lib/agent/agent.js';
import { Role } from '../../../../lib/core/role.js';
import { generateCallId, isGeneratedCallId, sanitizeGeminiSchema, sanitizeToolParameters, toGeminiContents, toGeminiRequest } from '../../../../lib/providers/gemini/index.js';
import { tool } from '../../../../lib/tools/tool.js';
import { testRuntime } from '../../../support/agent-harness.js';
import { jsonResponse, type ReplayServer } from '../../../support/replay-server.js';
import { geminiOn, startServer } from './harness.js';

/** Keys Gemini rejects anywhere in a schema. */
const REJECTED = ['additionalProperties', '$schema', '$ref', '$defs', 'definitions', 'const', 'oneOf', 'allOf', 'exclusiveMinimum', 'exclusiveMaximum', 'uniqueItems', 'patternProperties', 'not'];

/** Checks every schema node (property maps are walked into, not checked as schemas). */
function assertGeminiSafe(schema: unknown): void {
  if (Array.isArray(schema)) return schema.forEach(assertGeminiSafe);
  if (typeof schema !== 'object' || schema === null) return;
  const node = schema as Record<string, unknown>;
  for (const key of REJECTED) assert.equal(Object.hasOwn(node, key), false, `no ${key} in ${JSON.stringify(node)}`);
  if (String(node.type).toLowerCase() === 'array') assert.ok(node.items, `array with items: ${JSON.stringify(node)}`);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && typeof value === 'object' && value !== null) Object.values(value).forEach(assertGeminiSafe);
    else if (key === 'items' || key === 'anyOf') assertGeminiSafe(value);
  }
}

describe('Gemini schema sanitising', () => {
  let server: ReplayServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('a zod .strict() tool with arrays: the declaration sent has no additionalProperties/$schema and every array has items', async () => {
    const search = tool({
      name: 'search',
      description: 'Search documents',
      parameters: z
        .object({
          query: z.string().min(1).describe('What to look for'),
          tags: z.array(z.string()).max(5),
          filters: z.object({ after: z.string().datetime().optional(), kind: z.literal('doc') }).strict(),
          anything: z.array(z.any()),
          limit: z.number().int().positive().nullable(),
          mode: z.enum(['fast', 'deep']).default('fast'),
        })
        .strict(),
      execute: () => 'none',
    });
    server.enqueue(jsonResponse({ candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] }));
    const first = server.requests.length;
    const agent = new Agent({ provider: geminiOn(server), tools: [search], runtime: testRuntime() });
    assert.equal((await agent.run('find')).content, 'ok');
    const sent = server.requests[first]!.json as { tools: { functionDeclarations: { name: string; parameters: Record<string, unknown> }[] }[] };
    assert.equal(server.requests[first]!.path, '/v1beta/models/gemini-2.5-flash:generateContent', 'the provider default model');
    const parameters = sent.tools[0]!.functionDeclarations[0]!.parameters;
    assertGeminiSafe(parameters);
    const properties = parameters.properties as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(properties).sort(), ['anything', 'filters', 'limit', 'mode', 'query', 'tags']);
    assert.deepEqual(properties.tags, { type: 'ARRAY', items: { type: 'STRING' }, maxItems: 5 });
    assert.equal((properties.anything!.items as Record<string, unknown>).type, 'STRING');
    assert.deepEqual((properties.filters!.properties as Record<string, unknown>).kind, { type: 'STRING', enum: ['doc'] });
    assert.equal(properties.limit!.nullable, true);
    assert.equal(properties.limit!.type, 'INTEGER');
    assert.deepEqual(properties.mode!.enum, ['fast', 'deep']);
    assert.equal(properties.query!.description, 'What to look for');
    assert.deepEqual((parameters.required as string[]).sort(), ['anything', 'filters', 'limit', 'mode', 'query', 'tags'].filter((k) => (search.parameters.required as string[]).includes(k)).sort());
  });

  test('unit: refs are inlined, type arrays become nullable, unsupported formats and keys dropped', () => {
    const out = sanitizeGeminiSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      $defs: { Point: { type: 'object', properties: { x: { type: 'number', exclusiveMinimum: 0 } }, required: ['x', 'ghost'] } },
      properties: {
        at: { $ref: '#/$defs/Point' },
        email: { type: 'string', format: 'email' },
        when: { type: 'string', format: 'date-time' },
        note: { type: ['string', 'null'] },
        either: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        list: { type: 'array' },
        empty: { type: 'object', properties: {}, required: [] },
      },
      required: ['at'],
    });
    assert.deepEqual(out, {
      type: 'object',
      properties: {
        at: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] },
        email: { type: 'string' },
        when: { type: 'string', format: 'date-time' },
        note: { type: 'string', nullable: true },
        either: { type: 'string', nullable: true },
        list: { type: 'array', items: { type: 'string' } },
        empty: { type: 'object' },
      },
      required: ['at'],
    });
    assert.deepEqual(sanitizeGeminiSchema({ type: 'object', properties: { self: { $ref: '#' } } }), { type: 'object', properties: { self: { type: 'object' } } });
    assert.equal(sanitizeToolParameters({ type: 'object', properties: {}, additionalProperties: false }), undefined);
  });

  test('unit: request conversion (system, images, tool results grouped, call ids, toolChoice, structured output)', () => {
    // 'a' is an id the API sent (echoed on the call and its result); the other one was generated (never sent).
    const generated = generateCallId();
    assert.ok(isGeneratedCallId(generated) && !isGeneratedCallId('a'));
    const { contents, system } = toGeminiContents([
      { role: Role.SYSTEM, content: 'extra rule' },
      { role: Role.USER, content: 'look', images: [{ data: 'AAAA', mediaType: 'image/png' }] },
      { role: Role.ASSISTANT, content: 'calling', toolCalls: [{ id: 'a', toolName: 't', parameters: { x: 1 }, thoughtSignature: 'AQID' }, { id: generated, toolName: 't', parameters: {} }] },
      { role: Role.TOOL, content: '{"ok":true}', toolCallId: 'a', toolName: 't' },
      { role: Role.TOOL, content: 'boom', toolCallId: generated, toolName: 't', isError: true },
    ]);
    assert.deepEqual(system, ['extra rule']);
    assert.deepEqual(contents, [
      { role: 'user', parts: [{ text: 'look' }, { inlineData: { data: 'AAAA', mimeType: 'image/png' } }] },
      { role: 'model', parts: [{ text: 'calling' }, { functionCall: { id: 'a', name: 't', args: { x: 1 } }, thoughtSignature: 'AQID' }, { functionCall: { name: 't', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'a', name: 't', response: { output: { ok: true } } } }, { functionResponse: { name: 't', response: { error: 'boom' } } }] },
    ]);
    const request = toGeminiRequest({
      model: 'm',
      system: 'sys',
      messages: [{ role: Role.USER, content: 'q' }],
      tools: [{ name: 't', description: 'd', parameters: { type: 'object', properties: { a: { type: 'string' } } } }],
      toolChoice: { type: 'tool', toolName: 't' },
      responseFormat: { type: 'json_schema', name: 'out', schema: { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } }, required: ['a'] } },
    });
    assert.deepEqual(request.config.toolConfig, { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['t'] } });
    assert.deepEqual(request.config.systemInstruction, { parts: [{ text: 'sys' }] });
    assert.equal(request.config.responseMimeType, 'application/json');
    assert.deepEqual(request.config.responseSchema, { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
    for (const [choice, mode] of [['auto', 'AUTO'], ['none', 'NONE'], ['required', 'ANY']] as const) {
      const r = toGeminiRequest({ model: 'm', messages: [], tools: [{ name: 't', description: 'd', parameters: { type: 'object' } }], toolChoice: choice });
      assert.deepEqual(r.config.toolConfig, { functionCallingConfig: { mode } });
    }
  });
});
