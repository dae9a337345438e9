import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { binPath, ensureCliBuilt, repoRoot } from '../support/cli-build.js';

// The launcher is tested against a stand-in for the compiled CLI that reports, at the moment it
// is imported, what the environment looked like: so "before the CLI loads" is checked literally.
const FAKE_MAIN = `
import module from 'node:module';
const forceColorAtLoad = process.env.FORCE_COLOR ?? null;
const compileCacheDir = typeof module.getCompileCacheDir === 'function' ? module.getCompileCacheDir() ?? null : null;
export async function main(argv) {
  process.stdout.write(JSON.stringify({ forceColorAtLoad, compileCacheDir, argv }));
  return Number(process.env.FAKE_EXIT_CODE ?? '0');
}
`;

interface Report {
  forceColorAtLoad: string | null;
  compileCacheDir: string | null;
  argv: string[];
}

// A stand-in for the compiled trace view fast path: answers `trace view fast` itself (exit 6) and
// hands anything else back (undefined), reporting that it was asked.
const FAKE_FAST_PATH = `
export async function traceViewFastPath(argv) {
  process.stderr.write('fast path asked\\n');
  if (argv[2] !== 'fast') return undefined;
  process.stdout.write(JSON.stringify({ fastPath: argv }));
  return 6;
}
`;

// A stand-in for the fast path's bundle (a CommonJS script, see tui/cached-bundle.ts).
const FAKE_BUNDLE = `
module.exports = {
  traceViewFastPath: async (argv) => {
    process.stderr.write('bundle asked\\n');
    if (argv[2] !== 'fast') return undefined;
    process.stdout.write(JSON.stringify({ bundle: argv }));
    return 6;
  },
};
`;

let root = '';
let bareRoot = '';
let fastRoot = '';
let bundleRoot = '';

function launch(dir: string, args: readonly string[], env: Record<string, string> = {}): { status: number | null; report: Report | undefined; stderr: string } {
  const base = { ...process.env };
  delete base.NO_COLOR;
  delete base.FORCE_COLOR;
  delete base.NODE_COMPILE_CACHE;
  const result = spawnSync(process.execPath, [join(dir, 'bin', 'agentlib.js'), ...args], {
    env: { ...base, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { status: result.status, report: result.stdout ? (JSON.parse(result.stdout) as Report) : undefined, stderr: result.stderr };
}

describe('bin/agentlib.js launcher', () => {
  /** A folder with the launcher, a package.json and `files` (path → text). */
  const fakeRoot = (prefix: string, files: Record<string, string>): string => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    copyFileSync(binPath, join(dir, 'bin', 'agentlib.js'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };
  before(() => {
    root = fakeRoot('agentlib-launcher-', { 'dist/cli/main.js': FAKE_MAIN });
    fastRoot = fakeRoot('agentlib-launcher-fast-', { 'dist/cli/main.js': FAKE_MAIN, 'dist/cli/trace-view-fast-path.js': FAKE_FAST_PATH });
    ensureCliBuilt();
    const loaders = Object.fromEntries(['dist/tui/trace-viewer/load-fast-path.js', 'dist/tui/cached-bundle.js', 'dist/lib/core/cache-dir.js'].map((path) => [path, readFileSync(join(repoRoot, path), 'utf8')]));
    bundleRoot = fakeRoot('agentlib-launcher-bundle-', { 'dist/cli/main.js': FAKE_MAIN, 'dist/cli/trace-view-fast-path.js': FAKE_FAST_PATH, 'dist/cli/trace-view-fast-path.bundle.cjs': FAKE_BUNDLE, ...loaders });
    bareRoot = fakeRoot('agentlib-unbuilt-', {});
  });
  after(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(fastRoot, { recursive: true, force: true });
    rmSync(bundleRoot, { recursive: true, force: true });
    rmSync(bareRoot, { recursive: true, force: true });
  });

  test('passes the arguments to main() and exits with its result', () => {
    const run = launch(root, ['run', '--model', 'x', 'hello world'], { FAKE_EXIT_CODE: '7' });
    assert.equal(run.status, 7);
    assert.deepEqual(run.report?.argv, ['run', '--model', 'x', 'hello world']);
  });

  test('NO_COLOR (non-empty) sets FORCE_COLOR=0 before the CLI is imported', () => {
    assert.equal(launch(root, [], { NO_COLOR: '1' }).report?.forceColorAtLoad, '0');
    assert.equal(launch(root, [], { NO_COLOR: '1', FORCE_COLOR: '3' }).report?.forceColorAtLoad, '0', 'NO_COLOR wins over FORCE_COLOR');
  });

  test('--no-color and --color=false set FORCE_COLOR=0 too, and stay in argv for the parser', () => {
    const run = launch(root, ['--no-color', 'run']);
    assert.equal(run.report?.forceColorAtLoad, '0');
    assert.deepEqual(run.report?.argv, ['--no-color', 'run']);
    assert.equal(launch(root, ['--color=false']).report?.forceColorAtLoad, '0');
  });

  test('colour is left alone otherwise: empty NO_COLOR, no flag, or --no-color after --', () => {
    assert.equal(launch(root, []).report?.forceColorAtLoad, null);
    assert.equal(launch(root, [], { NO_COLOR: '' }).report?.forceColorAtLoad, null);
    assert.equal(launch(root, ['run', '--', '--no-color']).report?.forceColorAtLoad, null);
    assert.equal(launch(root, [], { FORCE_COLOR: '2' }).report?.forceColorAtLoad, '2');
  });

  test('enables the module compile cache when Node has it', { skip: typeof (module as { enableCompileCache?: unknown }).enableCompileCache !== 'function' && 'this Node has no module.enableCompileCache' }, () => {
    // NODE_COMPILE_CACHE is unset (launch() removes it), so only the launcher can have enabled it;
    // TMPDIR keeps the default cache directory inside this test's folder.
    const dir = launch(root, [], { TMPDIR: root, TMP: root, TEMP: root }).report?.compileCacheDir;
    assert.equal(typeof dir, 'string');
  });

  test('`trace view` goes to the fast path first, without loading the CLI; what it hands back goes to the CLI', () => {
    const fast = spawnSync(process.execPath, [join(fastRoot, 'bin', 'agentlib.js'), 'trace', 'view', 'fast'], { encoding: 'utf8' });
    assert.equal(fast.status, 6);
    assert.deepEqual(JSON.parse(fast.stdout), { fastPath: ['trace', 'view', 'fast'] }, 'main() never ran');
    const handedBack = launch(fastRoot, ['trace', 'view', 'run_1', '--tree']);
    assert.match(handedBack.stderr, /fast path asked/);
    assert.deepEqual(handedBack.report?.argv, ['trace', 'view', 'run_1', '--tree']);
    const other = launch(fastRoot, ['trace', 'show', 'run_1']);
    assert.equal(other.stderr, '', 'other commands do not ask the fast path');
    assert.deepEqual(other.report?.argv, ['trace', 'show', 'run_1']);
    assert.deepEqual(launch(root, ['trace', 'view', 'fast']).report?.argv, ['trace', 'view', 'fast'], 'a build without the fast path runs the CLI');
  });

  test('`trace view` runs from the fast path\'s bundle with the code cache when built, saving the cache after a run it handled', () => {
    const cacheDir = join(bundleRoot, 'code-cache');
    const env = { AGENTLIB_CACHE_DIR: cacheDir };
    const run = (): ReturnType<typeof spawnSync> => spawnSync(process.execPath, [join(bundleRoot, 'bin', 'agentlib.js'), 'trace', 'view', 'fast'], { encoding: 'utf8', env: { ...process.env, ...env } });
    const handedBack = launch(bundleRoot, ['trace', 'view', 'run_1', '--tree'], env);
    assert.match(handedBack.stderr, /bundle asked/);
    assert.deepEqual(handedBack.report?.argv, ['trace', 'view', 'run_1', '--tree']);
    assert.equal(existsSync(cacheDir), false, 'no cache after a run the bundle handed back');
    const first = run();
    assert.equal(first.status, 6, String(first.stderr));
    assert.deepEqual(JSON.parse(String(first.stdout)), { bundle: ['trace', 'view', 'fast'] }, 'the bundle ran, not the module or main()');
    assert.equal(readdirSync(cacheDir).filter((name) => name.endsWith('.v8cache')).length, 1, 'the code cache was saved');
    assert.equal(run().status, 6, 'and the next run uses it');
  });

  test('says how to build when dist/ is missing, and exits 3', () => {
    const run = launch(bareRoot, ['--help']);
    assert.equal(run.status, 3);
    assert.match(run.stderr, /the CLI is not built .*run "npm run build" first/);
  });
});
