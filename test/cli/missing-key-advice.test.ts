import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { execa } from 'execa';
import { formatError } from '../../cli/errors.js';
import { missingKeyAdvice } from '../../cli/missing-key-advice.js';
import { ProviderConfigurationError } from '../../lib/core/errors/provider-configuration-error.js';
import { binPath, ensureCliBuilt, repoRoot } from '../support/cli-build.js';
import { keylessEnv } from '../templates/offline-run.js';

describe('the missing API key error says what to do', () => {
  before(() => ensureCliBuilt());

  test('a missing key: set it, replay a cassette, a local Ollama model, agentlib doctor', () => {
    const error = new ProviderConfigurationError('Anthropic API key missing: set ANTHROPIC_API_KEY', { provider: 'anthropic', keyVariables: ['ANTHROPIC_API_KEY'] });
    const text = formatError(error);
    assert.match(text, /^agentlib: ProviderConfigurationError: Anthropic API key missing/);
    assert.match(text, /export ANTHROPIC_API_KEY=…/);
    assert.match(text, /--replay <cassette\.jsonl>/);
    assert.match(text, /--provider ollama --model llama3\.2/);
    assert.match(text, /agentlib doctor/);
  });

  test('other provider configuration errors get no such advice', () => {
    assert.deepEqual(missingKeyAdvice(new ProviderConfigurationError('x: baseURL is required', { provider: 'x' })), []);
    assert.deepEqual(missingKeyAdvice(new Error('no key')), []);
  });

  test('agentlib run with no OPENAI_API_KEY: exit 2 and the advice on stderr', async () => {
    const run = await execa(process.execPath, [binPath, 'run', 'examples/calculator/agent.yaml', 'What is 2 * 3?'], { cwd: repoRoot, reject: false, extendEnv: false, env: keylessEnv() });
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, /OpenAI API key missing/);
    assert.match(run.stderr, /export OPENAI_API_KEY=…/);
    assert.match(run.stderr, /--replay <cassette\.jsonl>/);
    assert.match(run.stderr, /ollama/);
    assert.match(run.stderr, /agentlib doctor/);
  });
});
