import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { binPath, ensureCliBuilt, repoRoot } from '../support/cli-build.js';

// `agentlib run` on the calculator example, as the README runs it, with its tool file (TypeScript)
// compiled once into the user's cache directory (AGENTLIB_CACHE_DIR here) and imported from there
// on later runs without loading a compiler.

const ARGS = ['run', 'examples/calculator/agent.yaml', 'What is 1231 * 2331?', '--replay', 'examples/calculator/cassette.jsonl', '--no-trace', '--quiet'];

describe('agentlib run start-up', () => {
  let dir = '';
  before(() => {
    ensureCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'agentlib-run-startup-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the binary with a module trace; returns stdout and the packages it loaded. */
  function run(cacheDir: string, name: string): { stdout: string; loaded: string[] } {
    const trace = join(dir, `${name}.txt`);
    const result = spawnSync(process.execPath, ['--import', join(repoRoot, 'test', 'support', 'module-trace-register.mjs'), binPath, ...ARGS], {
      cwd: repoRoot,
      env: { ...process.env, CI: 'true', NO_COLOR: '1', AGENTLIB_CACHE_DIR: cacheDir, AGENTLIB_MODULE_TRACE: trace },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    assert.equal(result.status, 0, result.stderr);
    const loaded = readFileSync(trace, 'utf8')
      .split('\n')
      .map((line) => /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined);
    return { stdout: result.stdout, loaded: [...new Set(loaded)].sort() };
  }

  test('the tool file is compiled on the first run only; later runs load neither esbuild nor tsx', () => {
    const cacheDir = join(dir, 'cache');
    const first = run(cacheDir, 'first');
    assert.match(first.stdout, /2,869,461/);
    assert.ok(first.loaded.includes('esbuild'), 'the first run compiles with esbuild');
    assert.ok(!first.loaded.includes('tsx'), 'tsx is only the fallback when the cache cannot be used');
    assert.equal(readdirSync(join(cacheDir, 'tools')).length, 1);

    const second = run(cacheDir, 'second');
    assert.equal(second.stdout, first.stdout);
    assert.deepEqual(second.loaded.filter((name) => name === 'esbuild' || name === 'tsx'), []);
    assert.equal(readdirSync(join(cacheDir, 'tools')).length, 1);
  });

  test('yargs and yaml come from their bundles (no module of either package) and no provider SDK is loaded on a replayed run', () => {
    const { stdout, loaded } = run(join(dir, 'cache-bundle'), 'bundle');
    assert.match(stdout, /2,869,461/);
    assert.deepEqual(loaded.filter((name) => ['yargs', 'yargs-parser', 'cliui', 'y18n', 'yaml', 'openai', '@anthropic-ai/sdk', '@google/genai'].includes(name)), []);
  });

  test('without a usable cache directory the run still works, through tsx', () => {
    const notADir = join(dir, 'file-not-dir');
    rmSync(notADir, { force: true });
    writeFileSync(notADir, 'a file where the cache directory should be');
    const fallback = run(notADir, 'fallback');
    assert.match(fallback.stdout, /2,869,461/);
    assert.ok(fallback.loaded.includes('tsx'));
  });
});
