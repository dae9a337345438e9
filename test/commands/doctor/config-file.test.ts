import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkConfigFile, providerEntries } from '../../../commands/doctor/config-file.js';
import { scratchDir } from '../doctor-helpers.js';

describe('doctor: config file', () => {
  test('no agent.yaml and no --agent: skipped, not required', async () => {
    const dir = scratchDir();
    try {
      const { result, config } = await checkConfigFile({ cwd: dir.dir, env: {} });
      assert.equal(result.status, 'skip');
      assert.equal(result.required, false);
      assert.equal(config, undefined);
    } finally {
      dir.cleanup();
    }
  });

  test('./agent.yaml is found and validated; ${VARS} come from the given environment', async () => {
    const dir = scratchDir({ 'agent.yaml': 'name: a\nprovider:\n  - type: openai\n    model: ${MODEL}\n  - ollama\ntemperature: 0.2\n' });
    try {
      const { result, config } = await checkConfigFile({ cwd: dir.dir, env: { MODEL: 'gpt-4o-mini' } });
      assert.equal(result.status, 'ok', result.detail);
      assert.equal(result.required, true);
      assert.equal(result.detail, 'agent.yaml: valid (provider openai (gpt-4o-mini) → ollama, 0 tool sources)');
      assert.deepEqual(providerEntries(config?.provider).map((e) => e.type), ['openai', 'ollama']);
      const unset = await checkConfigFile({ cwd: dir.dir, env: {} });
      assert.equal(unset.result.status, 'fail');
      assert.match(unset.result.detail, /^agent\.yaml:4:12: .*MODEL/);
    } finally {
      dir.cleanup();
    }
  });

  test('malformed YAML: every problem with file:line:col, and the issues in data', async () => {
    const dir = scratchDir({ 'bad.yaml': 'provider: opena\nmax_iterations: many\n' });
    try {
      const { result } = await checkConfigFile({ cwd: dir.dir, env: {}, agent: 'bad.yaml' });
      assert.equal(result.status, 'fail');
      const lines = result.detail.split('\n');
      assert.equal(lines.length, 2);
      assert.match(lines[0] ?? '', /^bad\.yaml:1:11: unknown provider "opena".*did you mean "openai"\?/);
      assert.match(lines[1] ?? '', /^bad\.yaml:2:17: /);
      assert.equal((result.data?.issues as unknown[]).length, 2);
      assert.equal(result.hint, 'fix these 2 problems in bad.yaml');
    } finally {
      dir.cleanup();
    }
  });

  test('--agent naming a missing file or a directory: a required failure', async () => {
    const dir = scratchDir();
    try {
      assert.equal((await checkConfigFile({ cwd: dir.dir, env: {}, agent: 'missing.yaml' })).result.detail, 'missing.yaml: file not found');
      assert.equal((await checkConfigFile({ cwd: dir.dir, env: {}, agent: '.' })).result.status, 'fail');
    } finally {
      dir.cleanup();
    }
  });
});
