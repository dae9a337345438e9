import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_MODELS, defaultModelFor, getModelInfo } from '../../../../lib/providers/models/index.js';

describe('defaultModelFor', () => {
  test('each provider has its own default model, registered under that provider', () => {
    assert.equal(defaultModelFor('openai'), 'gpt-4o-mini');
    assert.equal(defaultModelFor('gemini'), 'gemini-2.5-flash');
    assert.equal(defaultModelFor('ollama'), 'llama3.2');
    assert.match(defaultModelFor('anthropic'), /^claude-(haiku|sonnet)-/);
    for (const [provider, model] of Object.entries(DEFAULT_MODELS)) {
      assert.equal(getModelInfo(model)?.provider, provider, `${provider} default ${model}`);
    }
    assert.equal(new Set(Object.values(DEFAULT_MODELS)).size, 4, 'no model id shared across providers');
  });

  test('google is an alias of gemini; unknown providers have no default', () => {
    assert.equal(defaultModelFor('google'), 'gemini-2.5-flash');
    assert.equal(defaultModelFor('OpenAI'), 'gpt-4o-mini');
    assert.equal(defaultModelFor('acme'), undefined);
    assert.equal(defaultModelFor('toString'), undefined);
  });
});
