import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkProviderKeys } from '../../../commands/doctor/provider-keys.js';
import { checkTerminal, colorReason } from '../../../commands/doctor/terminal.js';
import { doctorExitCode, redactEnvSecrets, renderText } from '../../../commands/doctor.js';
import type { CheckResult } from '../../../commands/doctor/check.js';
import { memoryIO } from '../../support/cli-io.js';

describe('doctor: terminal', () => {
  test('TTYs and why colour is on or off', () => {
    assert.deepEqual(colorReason(memoryIO({}, { isTTY: true }), true), { enabled: true, reason: 'terminal' });
    assert.deepEqual(colorReason(memoryIO({ NO_COLOR: '1' }, { isTTY: true }), true), { enabled: false, reason: 'NO_COLOR is set' });
    assert.deepEqual(colorReason(memoryIO({ FORCE_COLOR: '1' }), true), { enabled: true, reason: 'FORCE_COLOR is set' });
    assert.deepEqual(colorReason(memoryIO({ TERM: 'dumb' }, { isTTY: true }), true), { enabled: false, reason: 'TERM=dumb' });
    assert.deepEqual(colorReason(memoryIO({}, { isTTY: true }), false), { enabled: false, reason: '--no-color' });
    assert.deepEqual(colorReason(memoryIO({}), true), { enabled: false, reason: 'stdout is not a terminal' });
    const check = checkTerminal(memoryIO({ CI: 'true' }, { isTTY: true }), true);
    assert.equal(check.status, 'ok');
    assert.equal(check.detail, 'stdout is a terminal (100 columns); stderr is a terminal; colour on (terminal); CI is set (no spinners)');
  });
});

describe('doctor: provider keys', () => {
  test('reports names only, including api_key_env of the agent file', () => {
    const check = checkProviderKeys({ OPENAI_API_KEY: 'sk-abc', GROQ_KEY: 'gsk-xyz', GEMINI_API_KEY: '  ' }, { source: 'a', baseDir: '/', tools: [], provider: [{ type: 'openai-compatible', apiKeyEnv: 'GROQ_KEY', baseURL: 'http://x', model: 'm' }] });
    assert.equal(check.status, 'ok');
    assert.equal(check.detail, 'set: OPENAI_API_KEY, GROQ_KEY; not set: ANTHROPIC_API_KEY, GEMINI_API_KEY, GOOGLE_API_KEY, AZURE_OPENAI_API_KEY');
    assert.ok(!JSON.stringify(check).includes('sk-abc'));
    assert.ok(!JSON.stringify(check).includes('gsk-xyz'));
  });

  test('AZURE_OPENAI_API_KEY alone counts as a provider key', () => {
    const check = checkProviderKeys({ AZURE_OPENAI_API_KEY: 'az-secret-key' });
    assert.equal(check.status, 'ok');
    assert.match(check.detail, /^set: AZURE_OPENAI_API_KEY; not set: /);
    assert.ok(!JSON.stringify(check).includes('az-secret-key'));
  });

  test('none set: a warning, unless the agent uses Ollama only', () => {
    assert.equal(checkProviderKeys({}).status, 'warn');
    assert.equal(checkProviderKeys({}, { source: 'a', baseDir: '/', tools: [], provider: 'ollama' }).status, 'ok');
  });
});

describe('doctor: report', () => {
  const check = (fields: Partial<CheckResult>): CheckResult => ({ id: 'x', title: 'X', status: 'ok', detail: 'fine', required: true, ...fields });

  test('exit codes: 0, 3 for a runtime failure, 2 for a config problem', () => {
    assert.equal(doctorExitCode([check({}), check({ status: 'warn' }), check({ status: 'skip' })]), 0);
    assert.equal(doctorExitCode([check({ id: 'provider:openai', status: 'fail' })]), 3);
    assert.equal(doctorExitCode([check({ id: 'config', status: 'fail' }), check({ id: 'provider:openai', status: 'fail' })]), 2);
    assert.equal(doctorExitCode([check({ id: 'provider:anthropic', status: 'fail', data: { reason: 'missing-key' } })]), 2);
  });

  test('text: glyphs, indented detail lines and hints, a summary', () => {
    const text = renderText([check({}), check({ title: 'Y', status: 'fail', detail: 'a.yaml:1:1: x\na.yaml:2:1: y', hint: 'fix it' }), check({ title: 'Z', status: 'skip', detail: 'n/a' })], false);
    assert.equal(text, '✓ X: fine\nx Y: a.yaml:1:1: x\n    a.yaml:2:1: y\n    hint: fix it\n- Z: n/a\n\n1 ok, 0 warnings, 1 failed, 1 skipped: 1 required check failed\n');
  });

  test('secret values of the environment are scrubbed from any string, never from other values', () => {
    const scrubbed = redactEnvSecrets([check({ detail: 'got sk-live-1234 and true', data: { n: 1, flag: true } })], { MY_API_KEY: 'sk-live-1234', SOME_TOKEN: 'true', HOME: '/home/x' });
    assert.equal(scrubbed[0]?.detail, 'got [redacted] and [redacted]');
    assert.deepEqual(scrubbed[0]?.data, { n: 1, flag: true });
  });
});
