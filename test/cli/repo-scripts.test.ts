import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { repoRoot } from '../support/cli-build.js';
import { INSTALLED_BY_CI } from '../support/requirements.js';

test('the launcher and the CI script are executable scripts with a shebang', { skip: process.platform === 'win32' && 'no executable bit on Windows' }, () => {
  for (const [file, shebang] of [['bin/agentlib.js', '#!/usr/bin/env node'], ['.ci/run', '#!/usr/bin/env bash']] as const) {
    const path = join(repoRoot, file);
    accessSync(path, constants.X_OK);
    assert.equal(readFileSync(path, 'utf8').split('\n')[0], shebang, file);
  }
});

test('.ci/run fails fast, installs with npm ci and runs exactly the README test command', () => {
  const script = readFileSync(join(repoRoot, '.ci', 'run'), 'utf8');
  assert.match(script, /^set -euo pipefail$/m);
  const commands = script.split('\n').map((line) => line.trim()).filter((line) => /^npm /.test(line));
  assert.deepEqual(commands, ['npm ci', 'npm test']);
  assert.match(readFileSync(join(repoRoot, 'README.md'), 'utf8'), /^npm test\b/m);
});

describe('.ci/run installs the tools the tests need, only when missing', { skip: process.platform === 'win32' && 'a bash script' }, () => {
  const stubs = mkdtempSync(join(tmpdir(), 'agentlib-ci-run-'));
  after(() => rmSync(stubs, { recursive: true, force: true }));
  const log = join(stubs, 'calls.log');
  const stub = (name: string, body: string): void => {
    writeFileSync(join(stubs, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(stubs, name), 0o755);
  };
  // node, npm and apt-get are stubs that log their arguments: nothing is installed or run for real.
  for (const name of ['node', 'npm', 'apt-get']) stub(name, `echo "${name} $*" >> "${log}"`);
  symlinkSync(execFileSync('/bin/sh', ['-c', 'command -v dirname'], { encoding: 'utf8' }).trim(), join(stubs, 'dirname'));

  /** Runs .ci/run with only the stubs on PATH; the commands it ran, in order. */
  function ciRun(): string[] {
    writeFileSync(log, '');
    execFileSync('/bin/bash', [join(repoRoot, '.ci', 'run')], { env: { PATH: stubs, CI: 'true', AGENTLIB_PG_ROOT: join(stubs, 'no-postgresql') }, stdio: 'ignore' });
    return readFileSync(log, 'utf8').split('\n').filter((line) => line !== '' && !line.endsWith('--version'));
  }

  test('none there: one apt-get install of all of them, then npm ci and npm test', () => {
    assert.deepEqual(ciRun(), ['apt-get update', `apt-get install -y ${INSTALLED_BY_CI.map((tool) => tool.package).join(' ')}`, 'npm ci', 'npm test']);
  });

  test('some there: only the missing ones; all there: no apt-get at all', () => {
    const [first, ...others] = INSTALLED_BY_CI;
    stub(first.command, 'exit 0');
    assert.deepEqual(ciRun(), ['apt-get update', `apt-get install -y ${others.map((tool) => tool.package).join(' ')}`, 'npm ci', 'npm test']);
    for (const tool of others) stub(tool.command, 'exit 0');
    assert.deepEqual(ciRun(), ['npm ci', 'npm test']);
  });

  test("PostgreSQL counts as installed when Debian's initdb is under /usr/lib/postgresql/<version>/bin, off PATH", () => {
    rmSync(join(stubs, 'initdb'));
    const bin = join(stubs, 'no-postgresql', '15', 'bin');
    mkdirSync(bin, { recursive: true });
    assert.deepEqual(ciRun(), ['apt-get update', 'apt-get install -y postgresql', 'npm ci', 'npm test'], 'the directory alone is not enough');
    writeFileSync(join(bin, 'initdb'), '');
    assert.deepEqual(ciRun(), ['npm ci', 'npm test']);
  });
});
