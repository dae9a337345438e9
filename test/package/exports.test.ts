import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { ensureCliBuilt, repoRoot } from '../support/cli-build.js';

interface PackageJson {
  name: string;
  type: string;
  sideEffects: boolean;
  engines: { node: string };
  bin: Record<string, string>;
  exports: Record<string, string | { types: string; import: string }>;
}

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as PackageJson;

describe('package', () => {
  before(() => ensureCliBuilt());

  test('ESM, side-effect free, Node >= 20.19, agentlib bin', () => {
    assert.equal(pkg.name, 'agentlib');
    assert.equal(pkg.type, 'module');
    assert.equal(pkg.sideEffects, false);
    assert.equal(pkg.engines.node, '>=20.19');
    assert.equal(pkg.bin['agentlib'], 'bin/agentlib.js');
  });

  test('every export subpath points at built JavaScript and declarations, and imports by package name', () => {
    const subpaths = Object.keys(pkg.exports).filter((key) => key !== './package.json');
    assert.ok(subpaths.includes('.') && subpaths.includes('./test'));
    for (const key of subpaths) {
      const target = pkg.exports[key];
      assert.ok(typeof target === 'object', key);
      assert.ok(existsSync(join(repoRoot, target.import)), `${key} → ${target.import}`);
      assert.ok(existsSync(join(repoRoot, target.types)), `${key} → ${target.types}`);
    }
    // Self-reference by package name, as a user would import it (plain node, compiled output).
    const specifiers = subpaths.map((key) => (key === '.' ? 'agentlib' : `agentlib/${key.slice(2)}`));
    const code = `for (const s of ${JSON.stringify(specifiers)}) { const m = await import(s); if (Object.keys(m).length === 0) throw new Error(s + ' exports nothing'); }`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
  });

  test('the README quick start runs as written', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const block = /## Quick start[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    assert.ok(block, 'README has a ts block under "Quick start"');
    const dir = join(repoRoot, 'test-artifacts', 'readme');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'quick-start.mts');
    writeFileSync(file, block);
    try {
      const result = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: repoRoot, encoding: 'utf8' });
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, /Order 42 has shipped\./);
      assert.match(result.stdout, /Order 7 has shipped too\./);
    } finally {
      rmSync(file, { force: true });
    }
  });
});
