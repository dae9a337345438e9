import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { importCachedToolModule, toolModuleCacheFile } from '../../../lib/tools/tool-module-cache.js';
import { repoRoot } from '../../support/cli-build.js';

// Tool files live under the repository (test-artifacts/, git-ignored) so that their package
// imports resolve as a user's would: `zod` from node_modules, `agentlib` by self-reference.

interface ToolModule {
  answer: { name: string };
  reply: (q: string) => string;
  helperUrl: string;
  helperFile: string;
}

describe('compiled tool module cache', () => {
  let work = '';
  before(() => {
    mkdirSync(join(repoRoot, 'test-artifacts'), { recursive: true });
    work = mkdtempSync(join(repoRoot, 'test-artifacts', 'tool-cache-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  /** A tool directory: tools.ts imports zod, agentlib and a local helper.ts (value `value`). */
  function toolDir(name: string, value: string): { dir: string; tools: string; helper: string } {
    const dir = join(work, name);
    mkdirSync(dir, { recursive: true });
    const helper = join(dir, 'helper.ts');
    writeFileSync(helper, `export const VALUE: string = ${JSON.stringify(value)};\nexport const helperUrl: string = import.meta.url;\nexport const helperFile: string = import.meta.filename;\n`);
    const tools = join(dir, 'tools.ts');
    writeFileSync(
      tools,
      [
        "import { tool } from 'agentlib';",
        "import { z } from 'zod';",
        "import { VALUE, helperUrl, helperFile } from './helper.ts';",
        'interface Args { q: string }',
        'export const reply = (q: string): string => `${q}:${VALUE}`;',
        "export const answer = tool({ name: 'answer', description: 'Answers with the helper value.', parameters: z.object({ q: z.string() }), execute: ({ q }: Args) => reply(q) });",
        'export { helperUrl, helperFile };',
        '',
      ].join('\n'),
    );
    return { dir, tools, helper };
  }

  const entries = (cacheDir: string): string[] => readdirSync(join(cacheDir, 'tools')).sort();

  test('a first import compiles and writes an entry, the next one uses it; local imports keep their import.meta', async () => {
    const { tools, helper } = toolDir('hit', 'one');
    const cacheDir = join(work, 'cache-hit');
    const first = await importCachedToolModule(tools, cacheDir);
    assert.equal(first?.outcome, 'miss');
    const mod = first.module as ToolModule;
    assert.equal(mod.answer.name, 'answer');
    assert.equal(mod.reply('x'), 'x:one');
    assert.equal(mod.helperUrl, pathToFileURL(helper).href, 'import.meta.url of the inlined file');
    assert.equal(mod.helperFile, helper);
    assert.equal(entries(cacheDir).length, 1);
    assert.match(readFileSync(first.file, 'utf8'), /from "file:\/\/[^"]*\/zod\//, 'package imports are resolved from the tool directory');

    const second = await importCachedToolModule(tools, cacheDir);
    assert.equal(second?.outcome, 'hit');
    assert.equal(second.file, first.file);
    assert.equal((second.module as ToolModule).reply('y'), 'y:one');
  });

  test('a change to the tool file or to a file it imports makes the entry a miss or stale', async () => {
    const { tools, helper } = toolDir('change', 'one');
    const cacheDir = join(work, 'cache-change');
    assert.equal((await importCachedToolModule(tools, cacheDir))?.outcome, 'miss');
    writeFileSync(helper, readFileSync(helper, 'utf8').replace('"one"', '"two"'));
    const afterHelper = await importCachedToolModule(tools, cacheDir);
    assert.equal(afterHelper?.outcome, 'stale');
    assert.equal((afterHelper.module as ToolModule).reply('x'), 'x:two', 'the new helper, not the module held for the old entry');
    assert.equal((await importCachedToolModule(tools, cacheDir))?.outcome, 'hit');
    writeFileSync(tools, `${readFileSync(tools, 'utf8')}export const extra = 1;\n`);
    const afterTools = await importCachedToolModule(tools, cacheDir);
    assert.equal(afterTools?.outcome, 'miss', 'an edited tool file is a new entry (named by its content)');
    assert.equal((afterTools.module as { extra?: number }).extra, 1);
  });

  test('a damaged entry is compiled again', async () => {
    const { tools } = toolDir('corrupt', 'one');
    const cacheDir = join(work, 'cache-corrupt');
    const first = await importCachedToolModule(tools, cacheDir);
    assert.ok(first);
    for (const damage of ['garbage', readFileSync(first.file, 'utf8').replace('answer', 'answr'), readFileSync(first.file, 'utf8').slice(0, 200), '']) {
      writeFileSync(first.file, damage);
      const again = await importCachedToolModule(tools, cacheDir);
      assert.equal(again?.outcome, 'corrupt');
      assert.equal((again.module as ToolModule).reply('x'), 'x:one');
      assert.equal((await importCachedToolModule(tools, cacheDir))?.outcome, 'hit');
    }
  });

  test('entries are named after the compiler, the file and its content', () => {
    const content = Buffer.from('export {};');
    const a = toolModuleCacheFile('/c', '/p/tools.ts', content, 'esbuild@1.0.0');
    assert.notEqual(toolModuleCacheFile('/c', '/p/tools.ts', content, 'esbuild@1.0.1'), a);
    assert.notEqual(toolModuleCacheFile('/c', '/q/tools.ts', content, 'esbuild@1.0.0'), a);
    assert.notEqual(toolModuleCacheFile('/c', '/p/tools.ts', Buffer.from('export {}; '), 'esbuild@1.0.0'), a);
    assert.equal(toolModuleCacheFile('/c', '/p/tools.ts', content, 'esbuild@1.0.0'), a);
  });

  test('a package the tool imports that does not resolve fails in Node\'s words (ERR_MODULE_NOT_FOUND), as an uncached import would', async () => {
    const dir = join(work, 'missing-package');
    mkdirSync(dir, { recursive: true });
    const tools = join(dir, 'tools.ts');
    writeFileSync(tools, "import { parse } from 'no-such-package-here/sub';\nexport const read = (text: string): unknown => parse(text);\n");
    await assert.rejects(importCachedToolModule(tools, join(work, 'cache-missing')), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'ERR_MODULE_NOT_FOUND');
      assert.equal(error.message, `Cannot find package 'no-such-package-here' imported from ${tools}`);
      return true;
    });
  });

  test('concurrent first runs in separate processes all load the tool and leave one whole entry', async () => {
    const { tools } = toolDir('concurrent', 'one');
    const cacheDir = join(work, 'cache-concurrent');
    const moduleUrl = pathToFileURL(join(repoRoot, 'lib', 'tools', 'tool-module-cache.ts')).href;
    const script = `const { importCachedToolModule } = await import(${JSON.stringify(moduleUrl)});
const loaded = await importCachedToolModule(${JSON.stringify(tools)}, ${JSON.stringify(cacheDir)});
process.stdout.write(loaded.module.reply('p'));`;
    const runs = Array.from({ length: 4 }, () =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
        child.on('close', (code) => resolve({ code, out, err }));
      }),
    );
    for (const run of await Promise.all(runs)) {
      assert.equal(run.code, 0, run.err);
      assert.equal(run.out, 'p:one');
    }
    assert.equal(entries(cacheDir).length, 1, `one entry, no temporary files: ${entries(cacheDir).join(', ')}`);
    assert.equal((await importCachedToolModule(tools, cacheDir))?.outcome, 'hit');
  });
});
