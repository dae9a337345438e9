import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { isBareSpecifier, ToolLoader } from '../../../lib/tools/index.js';

const toolModule = pathToFileURL(join(import.meta.dirname, '../../../lib/tools/tool.ts')).href;
const source = (name: string) => `import { tool } from ${JSON.stringify(toolModule)};
export const ${name} = tool({ name: '${name}', description: 'A packaged tool for tests', parameters: { type: 'object', properties: {} }, execute: () => 'ok' });
`;

describe('ToolLoader: installed packages', () => {
  let project = '';
  before(async () => {
    project = await mkdtemp(join(tmpdir(), 'agentlib-pkg-'));
    // An ESM-only package (exports with only an "import" condition) and a scoped one with a subpath.
    const esm = join(project, 'node_modules', 'esm-tools');
    await mkdir(esm, { recursive: true });
    await writeFile(join(esm, 'package.json'), JSON.stringify({ name: 'esm-tools', type: 'module', exports: { '.': { import: './main.mjs' } } }));
    await writeFile(join(esm, 'main.mjs'), source('find_book'));
    const scoped = join(project, 'node_modules', '@acme', 'tools');
    await mkdir(join(scoped, 'lib'), { recursive: true });
    await writeFile(join(scoped, 'package.json'), JSON.stringify({ name: '@acme/tools', type: 'module', exports: { './search': './lib/search.mjs' } }));
    await writeFile(join(scoped, 'lib', 'search.mjs'), source('web_search') + source('other_tool').split('\n').slice(1).join('\n'));
  });
  after(async () => rm(project, { recursive: true, force: true }));

  test('bare specifiers are recognised', () => {
    for (const s of ['pkg', '@scope/pkg', 'pkg/sub/path']) assert.equal(isBareSpecifier(s), true, s);
    for (const s of ['./pkg', '/abs/pkg', '../x', 'file:///x', 'tools.ts', 'missing.js']) assert.equal(isBareSpecifier(s), false, s);
  });

  test('a package, a scoped subpath, and pkg#export resolve from the loader cwd', async () => {
    const loader = new ToolLoader({ cwd: project });
    assert.deepEqual((await loader.load('esm-tools')).map((t) => t.name), ['find_book']);
    assert.deepEqual((await loader.load('@acme/tools/search')).map((t) => t.name).sort(), ['other_tool', 'web_search']);
    assert.deepEqual((await loader.load('@acme/tools/search#web_search')).map((t) => t.name), ['web_search']);
  });

  test('a missing package is a clear ConfigurationError', async () => {
    await assert.rejects(new ToolLoader({ cwd: project }).load('not-installed-tools'), (e: unknown) => ConfigurationError.isInstance(e) && /Cannot find package "not-installed-tools"/.test(e.message));
  });
});
