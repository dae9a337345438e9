import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { binPath } from '../support/cli-build.js';

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

let root = '';
let bareRoot = '';

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
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'agentlib-launcher-'));
    mkdirSync(join(root, 'bin'));
    mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
    writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
    copyFileSync(binPath, join(root, 'bin', 'agentlib.js'));
    writeFileSync(join(root, 'dist', 'cli', 'main.js'), FAKE_MAIN);
    bareRoot = mkdtempSync(join(tmpdir(), 'agentlib-unbuilt-'));
    mkdirSync(join(bareRoot, 'bin'));
    writeFileSync(join(bareRoot, 'package.json'), '{ "type": "module" }\n');
    copyFileSync(binPath, join(bareRoot, 'bin', 'agentlib.js'));
  });
  after(() => {
    rmSync(root, { recursive: true, force: true });
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

  test('says how to build when dist/ is missing, and exits 3', () => {
    const run = launch(bareRoot, ['--help']);
    assert.equal(run.status, 3);
    assert.match(run.stderr, /the CLI is not built .*run "npm run build" first/);
  });
});
