import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { cacheFileName, codeCacheDir, loadCachedBundle } from '../../tui/cached-bundle.js';
import { ensureCliBuilt, repoRoot } from '../support/cli-build.js';

/** A CommonJS bundle with enough code for V8 to cache: it uses require, module and __filename. */
function bundleSource(version: number): string {
  const functions = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x * ${i} + ${version}; }`).join('\n');
  return `const { basename } = require('node:path');\n${functions}\nmodule.exports = { version: ${version}, name: basename(__filename), sum: (x) => f1(x) + f199(x) };\n`;
}

describe('loadCachedBundle', () => {
  let dir: string;
  let cacheDir: string;
  let file: string;
  // Each test evaluates code this process has not compiled yet: V8 keeps compiled scripts in memory
  // and would then ignore the cache file (a "hit" across processes is tested in child processes).
  let nextVersion = 100;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agentlib-cached-bundle-'));
    cacheDir = join(dir, 'cache');
    file = join(dir, 'app.bundle.cjs');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const load = async (cache: string | undefined) => {
    const bundle = await loadCachedBundle(file, { cacheDir: cache });
    assert.ok(bundle, 'the bundle exists');
    return bundle;
  };
  const cacheFiles = (): string[] => readdirSync(cacheDir).filter((name) => name.endsWith('.v8cache'));
  /** Writes a new bundle and a cache file for it made by `save()` in a child process. */
  const withSavedCache = (): { version: number; path: string } => {
    const version = nextVersion++;
    writeFileSync(file, bundleSource(version));
    assert.equal(child(file, cacheDir, true).cache, 'missing');
    return { version, path: join(cacheDir, cacheFileName(file, bundleSource(version))) };
  };

  test('no bundle file: undefined', async () => {
    assert.equal(await loadCachedBundle(join(dir, 'missing.cjs'), { cacheDir }), undefined);
  });

  test('the first process compiles and writes the cache; the next one runs from it (a V8 cache hit)', () => {
    const version = nextVersion++;
    writeFileSync(file, bundleSource(version));
    assert.deepEqual(child(file, cacheDir, true), { cache: 'missing', version, name: 'app.bundle.cjs', sum: 2 * 1 + 2 * 199 + 2 * version, saved: true });
    assert.ok(cacheFiles().includes(cacheFileName(file, bundleSource(version))));
    assert.deepEqual(child(file, cacheDir, true), { cache: 'hit', version, name: 'app.bundle.cjs', sum: 2 * 1 + 2 * 199 + 2 * version, saved: false });
  });

  test('save() writes once, and only after a miss', async () => {
    const version = nextVersion++;
    writeFileSync(file, bundleSource(version));
    const bundle = await load(cacheDir);
    assert.equal(bundle.cache, 'missing');
    assert.equal(bundle.save(), true);
    assert.equal(bundle.save(), false);
  });

  test('a damaged cache file is not given to V8: compiled normally, then replaced', async () => {
    const { version, path } = withSavedCache();
    const bytes = readFileSync(path);
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 0xff;
    writeFileSync(path, bytes);
    const damaged = await load(cacheDir);
    assert.equal(damaged.cache, 'corrupt');
    assert.equal(damaged.exports['version'], version);
    assert.equal(damaged.save(), true);
    assert.notDeepEqual(readFileSync(path), bytes, 'rewritten');

    for (const broken of [bytes.subarray(0, 12), Buffer.alloc(0)]) {
      writeFileSync(path, broken); // truncated, empty
      assert.equal((await load(cacheDir)).cache, 'corrupt');
    }
  });

  test('a cache file V8 refuses (another V8, other flags) is rejected safely and rewritten', async () => {
    const version = nextVersion++;
    writeFileSync(file, bundleSource(version));
    const path = join(cacheDir, cacheFileName(file, bundleSource(version)));
    // a valid checksum over bytes that are not V8 code cache
    const payload = Buffer.alloc(4096, 7);
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(path, Buffer.concat([createHash('sha1').update(payload).digest(), payload]));
    const refused = await load(cacheDir);
    assert.equal(refused.cache, 'rejected');
    assert.equal(refused.exports['version'], version);
    assert.equal(refused.save(), true);
    assert.equal(child(file, cacheDir, false).cache, 'hit', 'the rewritten cache is used by the next process');
  });

  test('a changed bundle does not run the old cached code; only the newest three builds keep a cache file', async () => {
    const { version } = withSavedCache();
    const next = nextVersion++;
    writeFileSync(file, bundleSource(next)); // same length, other code: V8 alone would take the old cache
    assert.equal(bundleSource(next).length, bundleSource(version).length);
    const changed = await load(cacheDir);
    assert.equal(changed.cache, 'missing');
    assert.equal(changed.exports['version'], next, 'the new code ran');
    assert.equal(changed.save(), true);
    assert.ok(cacheFiles().includes(cacheFileName(file, bundleSource(version))), 'another install may still use the old build');
    // Each build's cache file is made older than the next one's by setting its time (not by waiting
    // between writes, which a coarse file-system clock may still stamp alike); the cache files of
    // earlier tests' builds are older still.
    const base = Date.now() - 3_600_000;
    for (const name of cacheFiles()) utimesSync(join(cacheDir, name), new Date(base - 60_000), new Date(base - 60_000));
    let age = 0;
    const stampBuilt = (v: number): void => {
      const when = new Date(base + 1_000 * age++);
      utimesSync(join(cacheDir, cacheFileName(file, bundleSource(v))), when, when);
    };
    const built = [version, next];
    built.forEach(stampBuilt);
    for (let i = 0; i < 3; i++) {
      const later = nextVersion++;
      writeFileSync(file, bundleSource(later));
      assert.equal((await load(cacheDir)).save(), true);
      built.push(later);
      stampBuilt(later);
    }
    assert.deepEqual(cacheFiles().sort(), built.slice(-3).map((v) => cacheFileName(file, bundleSource(v))).sort());
  });

  test('an unwritable cache directory: the bundle still loads, save() returns false', async () => {
    const version = nextVersion++;
    writeFileSync(file, bundleSource(version));
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, 'not a directory');
    const bundle = await load(join(blocked, 'cache'));
    assert.equal(bundle.cache, 'missing');
    assert.equal(bundle.exports['version'], version);
    assert.equal(bundle.save(), false);
  });

  test('no cache directory: caching is off', async () => {
    const version = nextVersion++;
    writeFileSync(file, bundleSource(version));
    const bundle = await load(undefined);
    assert.equal(bundle.cache, 'off');
    assert.equal(bundle.cacheFile, undefined);
    assert.equal(bundle.save(), false);
    assert.equal(bundle.exports['version'], version);
  });

  test("a cache made at build time (shippedCacheDir) is used when the user's directory has none, and nothing is written then", () => {
    const { version, path } = withSavedCache();
    const shipped = join(dir, 'shipped');
    mkdirSync(shipped, { recursive: true });
    writeFileSync(join(shipped, cacheFileName(file, bundleSource(version))), readFileSync(path));
    const own = join(dir, 'own-empty');
    assert.deepEqual(child(file, own, true, shipped), { cache: 'hit', version, name: 'app.bundle.cjs', sum: 2 * 1 + 2 * 199 + 2 * version, saved: false });
    assert.ok(!existsSync(own) || readdirSync(own).length === 0, "nothing written to the user's cache directory");
  });

  test("a damaged or refused shipped cache is ignored: compiled normally, and the run's own cache is written", () => {
    const { version, path } = withSavedCache();
    const shipped = join(dir, 'shipped-bad');
    mkdirSync(shipped, { recursive: true });
    const name = cacheFileName(file, bundleSource(version));
    const bytes = readFileSync(path);
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 0xff;
    writeFileSync(join(shipped, name), bytes);
    const own = join(dir, 'own-1');
    assert.deepEqual(child(file, own, true, shipped), { cache: 'missing', version, name: 'app.bundle.cjs', sum: 2 * 1 + 2 * 199 + 2 * version, saved: true });
    assert.ok(readdirSync(own).includes(name));
    // Whole but made by another V8 (a valid checksum over bytes V8 refuses).
    const foreign = Buffer.from('not a V8 code cache, but whole');
    writeFileSync(join(shipped, name), Buffer.concat([createHash('sha1').update(foreign).digest(), foreign]));
    const own2 = join(dir, 'own-2');
    assert.equal(child(file, own2, true, shipped).cache, 'missing');
    assert.ok(readdirSync(own2).includes(name));
  });

  test('the build leaves a code cache for the trace view bundle that this Node takes (scripts/build-code-cache.mjs)', async () => {
    ensureCliBuilt();
    const bundleFile = join(repoRoot, 'dist', 'cli', 'trace-view-fast-path.bundle.cjs');
    const name = cacheFileName(bundleFile, readFileSync(bundleFile, 'utf8'));
    assert.ok(readdirSync(join(repoRoot, 'dist', 'cli')).includes(name), `dist/cli/${name} exists`);
    const script = [
      `import { loadCachedBundle } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'tui', 'cached-bundle.ts')).href)};`,
      `const bundle = await loadCachedBundle(${JSON.stringify(bundleFile)}, ${JSON.stringify({ cacheDir: join(dir, 'own-build'), shippedCacheDir: join(repoRoot, 'dist', 'cli') })});`,
      'process.stdout.write(JSON.stringify({ cache: bundle.cache, exports: Object.keys(bundle.exports).sort() }));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
    assert.deepEqual(JSON.parse(out), { cache: 'hit', exports: ['parseFastView', 'traceViewFastPath'] });
  });

  test('a bundle that throws while it is evaluated rejects (the caller falls back)', async () => {
    writeFileSync(file, "throw new Error('broken bundle');\n");
    await assert.rejects(load(cacheDir), /broken bundle/);
  });
});

/** Loads `file` in a fresh Node process (then calls save() when asked) and reports what happened. */
function child(file: string, cacheDir: string, save: boolean, shippedCacheDir?: string): Record<string, unknown> {
  const options = shippedCacheDir === undefined ? { cacheDir } : { cacheDir, shippedCacheDir };
  const script = [
    `import { loadCachedBundle } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'tui', 'cached-bundle.ts')).href)};`,
    `const bundle = await loadCachedBundle(${JSON.stringify(file)}, ${JSON.stringify(options)});`,
    `const saved = ${String(save)} ? bundle.save() : false;`,
    'const { version, name, sum } = bundle.exports;',
    'process.stdout.write(JSON.stringify({ cache: bundle.cache, version, name, sum: sum(2), saved }));',
  ].join('\n');
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
  return JSON.parse(out) as Record<string, unknown>;
}

describe('codeCacheDir', () => {
  const home = (): string => '/home/u';
  test('AGENTLIB_CACHE_DIR, else the platform cache directory', () => {
    assert.equal(codeCacheDir({ AGENTLIB_CACHE_DIR: '/tmp/c', XDG_CACHE_HOME: '/x' }, 'linux', home), '/tmp/c');
    assert.equal(codeCacheDir({ XDG_CACHE_HOME: '/x' }, 'linux', home), join('/x', 'agentlib'));
    assert.equal(codeCacheDir({}, 'linux', home), join('/home/u', '.cache', 'agentlib'));
    assert.equal(codeCacheDir({ XDG_CACHE_HOME: '/x' }, 'darwin', home), join('/home/u', 'Library', 'Caches', 'agentlib'));
    assert.equal(codeCacheDir({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32', home), join('C:\\Users\\u\\AppData\\Local', 'agentlib', 'cache'));
  });

  test('no home directory: no cache', () => {
    assert.equal(codeCacheDir({}, 'linux', () => ''), undefined);
    assert.equal(
      codeCacheDir({}, 'linux', () => {
        throw new Error('no home');
      }),
      undefined,
    );
  });
});
