import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ensureCliBuilt, repoRoot } from '../../support/cli-build.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlib-ts-tools-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('TypeScript tool files without a registered loader (the compiled CLI)', () => {
  before(() => ensureCliBuilt());

  test('plain node (no tsx loader) imports a .ts tool file through tsx on demand', () => {
    const file = join(dir, 'tools.ts');
    writeFileSync(
      file,
      [
        "import { tool } from '" + pathToFileURL(join(repoRoot, 'dist', 'lib', 'tools', 'index.js')).href + "';",
        'type Args = { a: number; b: number };',
        "export const add = tool({ name: 'add', description: 'Adds two numbers.', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }, execute: ({ a, b }: Args): number => a + b });",
      ].join('\n'),
    );
    const script = `
      const { loadTools } = await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'dist', 'lib', 'tools', 'index.js')).href)});
      const [add] = await loadTools(${JSON.stringify(file)});
      const loaders = process.execArgv.join(' ');
      process.stdout.write(JSON.stringify({ name: add.name, loaders }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    assert.equal(run.status, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { name: string; loaders: string };
    assert.equal(out.name, 'add');
    assert.doesNotMatch(out.loaders, /tsx/, 'the child must not run under tsx');
  });
});
