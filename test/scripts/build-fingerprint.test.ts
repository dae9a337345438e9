import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
// @ts-expect-error -- a plain .mjs script without type declarations
import { BUILD_CONFIG_FILES, BUILD_INPUT_DIRS, buildFingerprint as fingerprint } from '../../scripts/build-fingerprint.mjs';
import { ensureCliBuilt, repoRoot } from '../support/cli-build.js';

const buildFingerprint = fingerprint as (dir: string) => string;
const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** Every file under `dir` with its modification time. */
function mtimes(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out.set(join(entry.parentPath, entry.name), statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return out;
}

describe('scripts/build-fingerprint.mjs', () => {
  let work = '';
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'agentlib-fingerprint-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  test('the fingerprint follows the content of the build inputs, not their modification times', () => {
    const dir = join(work, 'inputs');
    mkdirSync(join(dir, 'lib', 'a'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{}\n');
    writeFileSync(join(dir, 'lib', 'a', 'x.ts'), 'export const x = 1;\n');
    const first = buildFingerprint(dir);
    utimesSync(join(dir, 'lib', 'a', 'x.ts'), new Date(), new Date(Date.now() + 60_000));
    assert.equal(buildFingerprint(dir), first, 'touched, same content');
    writeFileSync(join(dir, 'lib', 'a', 'x.ts'), 'export const x = 2;\n');
    const second = buildFingerprint(dir);
    assert.notEqual(second, first, 'content changed');
    writeFileSync(join(dir, 'lib', 'a', 'y.ts'), '');
    assert.notEqual(buildFingerprint(dir), second, 'a file added');
    writeFileSync(join(dir, 'test.ts'), 'not an input');
    mkdirSync(join(dir, 'test'));
    writeFileSync(join(dir, 'test', 'z.test.ts'), 'not an input');
    assert.notEqual(buildFingerprint(dir), second);
    assert.equal(buildFingerprint(dir), buildFingerprint(dir));
  });

  test('the first `npx agentlib …` in a built checkout starts without rebuilding dist/', () => {
    ensureCliBuilt();
    // A checkout as after `npm ci`: the build inputs, the built dist/ and the dependencies. npm
    // links the checkout into a fresh npx cache, which runs its `prepare` script.
    const checkout = join(work, 'checkout');
    for (const name of [...(BUILD_INPUT_DIRS as string[]), ...(BUILD_CONFIG_FILES as string[]), 'dist', 'README.md']) {
      if (existsSync(join(repoRoot, name))) cpSync(join(repoRoot, name), join(checkout, name), { recursive: true });
    }
    symlinkSync(join(repoRoot, 'node_modules'), join(checkout, 'node_modules'), 'dir');
    const before = mtimes(join(checkout, 'dist'));
    const env = { ...process.env, npm_config_cache: join(work, 'npm-cache'), npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
    const result = spawnSync('npx', ['--offline', '--yes', 'agentlib', '--version'], { cwd: checkout, env, encoding: 'utf8', shell: process.platform === 'win32' });
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.equal(result.stdout.trim().split('\n').at(-1), version);
    assert.doesNotMatch(result.stdout + result.stderr, /npm run build|tsc -p/);
    assert.deepEqual(mtimes(join(checkout, 'dist')), before, 'dist/ is left as it was');
    assert.ok(readdirSync(join(work, 'npm-cache', '_npx')).length > 0, 'npx installed the checkout (and ran its prepare script)');
  });
});
