import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { ToolValidationError } from '../../../lib/core/errors/tool-validation-error.js';
import { isTool, tool, ToolRegistry } from '../../../lib/tools/index.js';
import type { Tool } from '../../../lib/tools/index.js';

const echo = (name: string, text = name): Tool =>
  tool({ name, description: `Echo tool called ${name}`, parameters: z.object({ text: z.string().optional() }), execute: () => text });

const ctx = { signal: new AbortController().signal, runId: 'r', callId: 'c', toolName: 'x', context: undefined };

describe('ToolRegistry', () => {
  test('keeps insertion order for list, names, specs and iteration', () => {
    const registry = new ToolRegistry([echo('b'), echo('a')]);
    registry.add(echo('c'));
    registry.addAll([echo('e'), echo('d')]);
    assert.deepEqual(registry.names(), ['b', 'a', 'c', 'e', 'd']);
    assert.deepEqual(registry.list().map((t) => t.name), ['b', 'a', 'c', 'e', 'd']);
    assert.deepEqual([...registry].map((t) => t.name), ['b', 'a', 'c', 'e', 'd']);
    assert.deepEqual(registry.specs()[0], { name: 'b', description: 'Echo tool called b', parameters: registry.get('b')!.parameters });
    assert.equal(registry.size, 5);
  });

  test('rejects duplicate names', () => {
    const registry = new ToolRegistry([echo('a')]);
    assert.throws(() => registry.add(echo('a')), (error: unknown) => ToolValidationError.isInstance(error) && /"a" is already registered.*replace\(\)/.test(error.message));
    assert.throws(() => registry.register(echo('a')), ToolValidationError);
    assert.throws(() => new ToolRegistry([echo('x'), echo('x')]), /appears twice/);
  });

  test('addAll is all or nothing', () => {
    const registry = new ToolRegistry([echo('a')]);
    assert.throws(() => registry.addAll([echo('b'), echo('a')]), ToolValidationError);
    assert.deepEqual(registry.names(), ['a']);
  });

  test('get, has, remove (boolean) and replace (adds if new, keeps the position)', async () => {
    const registry = new ToolRegistry([echo('a'), echo('b'), echo('c')]);
    assert.equal(registry.has('b'), true);
    assert.equal(registry.get('zzz'), undefined);
    const previous = registry.replace(echo('b', 'new b'));
    assert.equal(previous?.name, 'b');
    assert.deepEqual(registry.names(), ['a', 'b', 'c']);
    assert.equal((await registry.get('b')!.invoke({}, ctx)).content, 'new b');
    assert.equal(registry.replace(echo('d')), undefined);
    assert.deepEqual(registry.names(), ['a', 'b', 'c', 'd']);
    assert.equal(registry.remove('a'), true);
    assert.equal(registry.remove('a'), false);
    assert.deepEqual(registry.names(), ['b', 'c', 'd']);
  });

  test('require suggests a close name', () => {
    const registry = new ToolRegistry([echo('get_weather')]);
    assert.throws(() => registry.require('get_wether'), (error: unknown) => ToolValidationError.isInstance(error) && error.suggestion === 'get_weather');
  });

  test('register forwards option overrides (screenOutput, terminal, requiresApproval, cacheable, cacheTtl) to a copy', () => {
    const registry = new ToolRegistry();
    const original = echo('a');
    const stored = registry.register(original, { screenOutput: true, terminal: true, requiresApproval: true, cacheable: true, cacheTtl: 30 });
    assert.notEqual(stored, original);
    assert.equal(registry.get('a'), stored);
    assert.deepEqual(
      [stored.screenOutput, stored.terminal, stored.requiresApproval, stored.cacheable, stored.cacheTtl],
      [true, true, true, true, 30],
    );
    assert.deepEqual([original.screenOutput, original.terminal, original.cacheTtl], [false, false, 300]);
    assert.equal(registry.register(echo('b'), {}).terminal, false);
    assert.throws(() => registry.register(echo('c'), { cacheTtl: -5 }), ToolValidationError);
  });

  test('register accepts a definition (checked like tool()) with options', async () => {
    const registry = new ToolRegistry();
    const stored = registry.register(
      { name: 'add', description: 'Adds two numbers', parameters: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b },
      { requiresApproval: true },
    );
    assert.ok(isTool(stored));
    assert.equal(stored.requiresApproval, true);
    const args = await stored.validateArgs({ a: '2', b: 3 });
    assert.ok(args.ok);
    assert.equal((await stored.invoke(args.value, ctx)).content, '5');
    assert.throws(() => registry.register({ name: 'bad name', description: 'Invalid tool name', execute: () => 1 }), /not an identifier/);
    assert.throws(() => registry.add('nope' as unknown as Tool), /Expected a tool/);
  });
});
