import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { repoRoot } from './cli-build.js';
import { isCi, missingReason, RequirementMissingError, requires, serviceUrl } from './requirements.js';

describe('requires(): a missing tool skips locally and fails under CI', () => {
  test('CI counts as set unless empty, 0 or false', () => {
    for (const value of ['true', '1', 'yes', 'TRUE']) assert.equal(isCi({ CI: value }), true, value);
    for (const value of [undefined, '', ' ', '0', 'false', 'False']) assert.equal(isCi(value === undefined ? {} : { CI: value }), false, String(value));
  });

  test('available: the test runs, under CI or not', () => {
    assert.deepEqual(requires('tmux', {}, undefined), { skip: false });
    assert.deepEqual(requires('tmux', { CI: 'true' }, undefined), { skip: false });
  });

  test('missing in a local run: skipped with the reason', () => {
    assert.deepEqual(requires('chromium', {}, 'no Chromium binary'), { skip: 'no Chromium binary' });
    assert.deepEqual(requires('chromium', { CI: 'false' }, 'no Chromium binary'), { skip: 'no Chromium binary' });
  });

  test('missing under CI: a failure naming what is missing and why', () => {
    assert.throws(
      () => requires('tmux', { CI: 'true' }, 'tmux is not installed'),
      (error: unknown) => error instanceof RequirementMissingError && /needs tmux, and CI is set.*tmux is not installed/.test(error.message),
    );
  });

  test('redis and postgres: available when their test URL is set', () => {
    assert.match(missingReason('redis', {}) ?? '', /no redis server: .*set AGENTLIB_TEST_REDIS_URL/);
    assert.match(missingReason('postgres', { AGENTLIB_TEST_POSTGRES_URL: ' ' }) ?? '', /set AGENTLIB_TEST_POSTGRES_URL/);
    assert.equal(missingReason('postgres', { AGENTLIB_TEST_POSTGRES_URL: 'postgres://127.0.0.1:5432/t' }), undefined);
    assert.equal(serviceUrl('redis', { AGENTLIB_TEST_REDIS_URL: 'redis://127.0.0.1:6379' }), 'redis://127.0.0.1:6379');
    assert.throws(() => serviceUrl('redis', {}), /set AGENTLIB_TEST_REDIS_URL/);
    assert.throws(() => requires('postgres', { CI: 'true' }), RequirementMissingError);
  });
});

describe('requires() in a real node:test run (a PATH with or without tmux)', () => {
  const bin = mkdtempSync(join(tmpdir(), 'agentlib-requires-'));
  after(() => rmSync(bin, { recursive: true, force: true }));
  const fixture = join('test', 'support', 'fixtures', 'needs-tmux-and-redis.ts');

  /** Runs the fixture with only `bin` on PATH (no tmux unless a stub is put there). */
  function runFixture(env: Record<string, string>): { status: number | null; output: string } {
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', fixture], {
      cwd: repoRoot,
      env: { PATH: bin, HOME: bin, NO_COLOR: '1', ...env },
      encoding: 'utf8',
    });
    return { status: result.status, output: result.stdout + result.stderr };
  }

  test('without CI: both tests are skipped with their reasons, and the run passes', () => {
    const run = runFixture({});
    assert.equal(run.status, 0, run.output);
    assert.match(run.output, /a suite that needs tmux .*# tmux is not installed/);
    assert.match(run.output, /a test that needs redis .*# no redis server: .*set AGENTLIB_TEST_REDIS_URL/);
    assert.match(run.output, /pass 0\n.*fail 0\n/);
  });

  test('with CI set: the missing tmux fails the run', () => {
    const run = runFixture({ CI: 'true' });
    assert.equal(run.status, 1, run.output);
    assert.match(run.output, /RequirementMissingError: this test needs tmux, and CI is set, so it fails instead of skipping: tmux is not installed/);
  });

  test('with CI set and tmux on PATH: the tmux suite runs; the missing redis fails', () => {
    writeFileSync(join(bin, 'tmux'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(bin, 'tmux'), 0o755);
    const local = runFixture({});
    assert.equal(local.status, 0, local.output);
    assert.match(local.output, /✔ runs in a terminal/);
    assert.match(local.output, /a test that needs redis .*# no redis server/);
    const ci = runFixture({ CI: 'true' });
    assert.equal(ci.status, 1, ci.output);
    assert.match(ci.output, /needs redis, and CI is set/);
  });
});
