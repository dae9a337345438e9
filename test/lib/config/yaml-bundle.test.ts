import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import * as yaml from 'yaml';
import type { loadYaml as LoadYaml } from '../../../lib/config/yaml-module.js';
import { ensureCliBuilt, repoRoot } from '../../support/cli-build.js';

// The build bundles the yaml package into dist/lib/config/yaml.bundle.cjs, which the built
// library loads instead of the package's ~70 files. It must read agent files as the package does.

const BROKEN = ['name: demo', 'model: gpt-4o-mini', '  tools: [calc]', 'instructions: |', '  be brief', ''].join('\n');
const GOOD = ['name: demo', 'tools:', '  - ./tools.ts', 'vars: { a: 1 }', ''].join('\n');

describe('the bundled yaml package', () => {
  let bundled: typeof yaml;
  before(async () => {
    ensureCliBuilt();
    const module = (await import(pathToFileURL(join(repoRoot, 'dist', 'lib', 'config', 'yaml-module.js')).href)) as { loadYaml: typeof LoadYaml };
    bundled = module.loadYaml();
  });

  test('the built library uses the bundle, not the package', () => {
    assert.notEqual(bundled, createRequire(import.meta.url)('yaml'));
    assert.equal(bundled.stringify({ a: [1, 'two'] }), yaml.stringify({ a: [1, 'two'] }));
  });

  test('reports the same errors at the same places', () => {
    const mine = bundled.parseDocument(BROKEN).errors.map((error) => [error.code, error.message, error.linePos]);
    const theirs = yaml.parseDocument(BROKEN).errors.map((error) => [error.code, error.message, error.linePos]);
    assert.ok(theirs.length > 0);
    assert.deepEqual(mine, theirs);
  });

  test("its nodes are recognised by the package's type guards and the other way round", () => {
    const doc = bundled.parseDocument(GOOD);
    assert.ok(yaml.isMap(doc.contents));
    assert.ok(bundled.isMap(yaml.parseDocument(GOOD).contents));
    assert.deepEqual(doc.toJS(), yaml.parse(GOOD));
  });
});
