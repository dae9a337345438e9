import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { ToolValidationError } from '../../../lib/core/errors/tool-validation-error.js';
import { loadTools, ToolLoader } from '../../../lib/tools/index.js';
import * as weatherModule from './fixtures/weather-tools.js';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const names = (tools: readonly { name: string }[]): string[] => tools.map((t) => t.name);
const ctx = { signal: new AbortController().signal, runId: 'r', callId: 'c', toolName: 'x', context: undefined };

describe('ToolLoader', () => {
  test('from a module object: every exported tool (also inside arrays), once, helpers ignored', () => {
    assert.deepEqual(names(new ToolLoader().fromModule(weatherModule)).sort(), ['get_forecast', 'get_weather']);
  });

  test('from a .ts file path (absolute or relative to cwd)', async () => {
    const tools = await new ToolLoader().fromFile(join(fixtures, 'weather-tools.ts'));
    assert.deepEqual(names(tools).sort(), ['get_forecast', 'get_weather']);
    const relative = await new ToolLoader({ cwd: fixtures }).fromFile('weather-tools.ts');
    assert.deepEqual(names(relative).sort(), ['get_forecast', 'get_weather']);
    assert.equal(relative.find((t) => t.name === 'get_weather'), weatherModule.getWeather);
  });

  test('from a path#exportName reference, with did-you-mean for a wrong export', async () => {
    const loader = new ToolLoader({ cwd: fixtures });
    assert.deepEqual(names(await loader.fromReference('weather-tools.ts#getWeather')), ['get_weather']);
    assert.deepEqual(names(await loader.load('weather-tools.ts#all')), ['get_weather', 'get_forecast']);
    await assert.rejects(loader.fromReference('weather-tools.ts#getWether'), (error: unknown) =>
      ConfigurationError.isInstance(error) && /no export "getWether" — did you mean "getWeather"\?/.test(error.message) && error.suggestion === 'getWeather',
    );
    await assert.rejects(loader.fromReference('weather-tools.ts#helper'), /Export "helper" .* is not a tool/);
    await assert.rejects(loader.fromReference('weather-tools.ts'), /expected "path#exportName"/);
  });

  test('from a directory: .ts, .mjs and .js files in name order, tests and .d.ts skipped, non-recursive by default', async () => {
    const tools = await new ToolLoader().fromDirectory(join(fixtures, 'dir'));
    assert.deepEqual(names(tools), ['alpha', 'beta', 'delta']);
    assert.equal((await tools[1]!.invoke({}, ctx)).content, 'beta');
    const deep = await new ToolLoader({ recursive: true }).fromDirectory(join(fixtures, 'dir'));
    assert.deepEqual(names(deep), ['alpha', 'beta', 'delta', 'gamma']);
  });

  test('duplicate names across files are rejected', async () => {
    await assert.rejects(new ToolLoader().fromDirectory(join(fixtures, 'dup')), (error: unknown) =>
      ToolValidationError.isInstance(error) && /Duplicate tool name "lookup": defined in .*one\.ts and in .*two\.ts/.test(error.message),
    );
    await assert.rejects(loadTools([join(fixtures, 'dup/one.ts'), join(fixtures, 'dup/two.ts')]), ToolValidationError);
  });

  test('loadTools takes one source or many and dispatches on their kind', async () => {
    const tools = await loadTools([weatherModule, join(fixtures, 'dir'), `${join(fixtures, 'dir/sub/gamma.ts')}#gamma`]);
    assert.deepEqual(names(tools.slice(0, 2)).sort(), ['get_forecast', 'get_weather']);
    assert.deepEqual(names(tools.slice(2)), ['alpha', 'beta', 'delta', 'gamma']);
    assert.deepEqual(names(await loadTools(join(fixtures, 'dir/alpha.ts'))), ['alpha']);
  });

  test('missing files, files without tools, failing imports and empty directories are clear errors', async () => {
    const loader = new ToolLoader({ cwd: fixtures });
    await assert.rejects(loader.load('missing.ts'), (error: unknown) => ConfigurationError.isInstance(error) && /Tool source not found: missing\.ts/.test(error.message));
    await assert.rejects(loader.fromFile('missing.ts'), /Tool file not found/);
    await assert.rejects(loader.fromFile('nothing/plain.ts'), /No tools are exported by nothing[/\\]plain\.ts/);
    await assert.rejects(loader.fromDirectory('nothing'), /No tools found in directory nothing/);
    await assert.rejects(loader.fromFile('broken.ts'), (error: unknown) =>
      ConfigurationError.isInstance(error) && /Failed to load tools from broken\.ts: broken on purpose/.test(error.message) && error.cause instanceof Error,
    );
    const empty = await mkdtemp(join(tmpdir(), 'agentlib-tools-'));
    try {
      await assert.rejects(loader.fromDirectory(empty), /No tools found/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  test('a .ts file without a TypeScript loader gets an explanation (run under tsx)', async () => {
    const importModule = (): Promise<unknown> =>
      Promise.reject(Object.assign(new TypeError('Unknown file extension ".ts"'), { code: 'ERR_UNKNOWN_FILE_EXTENSION' }));
    const loader = new ToolLoader({ cwd: fixtures, importModule });
    await assert.rejects(loader.fromFile('weather-tools.ts'), (error: unknown) =>
      ConfigurationError.isInstance(error) && /no TypeScript loader is registered.*tsx.*node --import tsx/.test(error.message),
    );
  });

  test('files are imported by file URL', async () => {
    const urls: string[] = [];
    const loader = new ToolLoader({ cwd: fixtures, importModule: (url) => (urls.push(url), import(url) as Promise<unknown>) });
    await loader.fromFile('dir/alpha.ts');
    assert.equal(urls.length, 1);
    assert.match(urls[0]!, /^file:\/\/.*\/dir\/alpha\.ts$/);
  });
});
