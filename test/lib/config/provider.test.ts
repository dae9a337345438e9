import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadAgent } from '../../../lib/config/load-agent.js';
import { parseAgentConfig } from '../../../lib/config/parse-agent-config.js';
import type { ProviderSpec } from '../../../lib/providers/create-provider.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { brief, issuesOf, tempProject } from './project.js';

describe('agent YAML: provider forms', () => {
  test('a name', () => {
    assert.equal(parseAgentConfig('provider: anthropic\n').provider, 'anthropic');
  });

  test('an object maps snake_case keys to the createProvider spec', () => {
    const yaml = 'provider:\n  type: openai-compatible\n  model: llama3\n  base_url: http://localhost:8080/v1\n  api_key_env: LOCAL_KEY\n  timeout_ms: 5000\n  name: local\n';
    assert.deepEqual(parseAgentConfig(yaml).provider, { type: 'openai-compatible', model: 'llama3', baseURL: 'http://localhost:8080/v1', apiKeyEnv: 'LOCAL_KEY', timeoutMs: 5000, name: 'local' });
  });

  test('"name" where nothing would read it (a single provider that is not openai-compatible) is refused at the key', () => {
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('provider:\n  type: openai\n  name: primary\n'))), [
      '3:3 "name" would be ignored on a single "openai" provider: it labels the entries of a fallback chain (a list of two or more) and names an openai-compatible provider',
    ]);
    assert.equal(issuesOf(() => parseAgentConfig('provider:\n  - { type: anthropic, name: only }\n'))[0]?.path, 'provider[0].name');
    assert.deepEqual(parseAgentConfig('provider:\n  - { type: anthropic, name: a }\n  - { type: openai, name: b }\n').provider, [{ type: 'anthropic', name: 'a' }, { type: 'openai', name: 'b' }]);
  });

  test('a list is a fallback chain of names and objects, each with its own model', () => {
    const yaml = 'provider:\n  - type: anthropic\n    model: claude-haiku-4-5\n  - openai\n  - { type: ollama, base_url: "http://gpu:11434" }\n';
    assert.deepEqual(parseAgentConfig(yaml).provider, [{ type: 'anthropic', model: 'claude-haiku-4-5' }, 'openai', { type: 'ollama', baseURL: 'http://gpu:11434' }]);
  });

  test('provider mistakes: unknown names (did-you-mean), unknown keys, missing type, empty chain, missing fields', () => {
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('provider: gemeni\n'))), ['1:11 unknown provider "gemeni" (known: openai, anthropic, gemini, ollama, openai-compatible, azure) → gemini']);
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('provider:\n  type: openai\n  api_key: sk-123\n  baseurl: x\n'))), [
      '3:3 unknown key "api_key" under "provider" → api_key_env',
      '4:3 unknown key "baseurl" under "provider" → base_url',
    ]);
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('provider:\n  model: x\n'))), ['2:3 "provider" is missing the required key "type"']);
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('provider: []\n'))), ['1:11 "provider" (a fallback chain) needs at least one provider']);
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('provider:\n  - openai\n  - type: openai-compatible\n    model: m\n'))), ['3:5 provider "openai-compatible" needs "base_url"']);
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('provider:\n  - openai\n  - typo\n'))), ['3:5 unknown provider "typo" (known: openai, anthropic, gemini, ollama, openai-compatible, azure)']);
  });

  test('loadAgent hands the spec to createProvider; options.provider replaces it', async () => {
    const project = await tempProject({ 'agent.yaml': 'provider:\n  - { type: anthropic, model: claude-haiku-4-5 }\n  - openai\nmodel: file-model\n' });
    try {
      const seen: ProviderSpec[] = [];
      const createProvider = async (spec: ProviderSpec) => (seen.push(spec), new ScriptedProvider({ name: 'fake' }));
      const agent = await loadAgent(`${project.dir}/agent.yaml`, { createProvider });
      assert.deepEqual(seen, [[{ type: 'anthropic', model: 'claude-haiku-4-5' }, 'openai']]);
      assert.equal(agent.providerName, 'fake');
      assert.equal(agent.model, 'file-model');
      const overridden = await loadAgent(`${project.dir}/agent.yaml`, { createProvider, provider: 'gemini', model: 'cli-model' });
      assert.deepEqual(seen.at(-1), 'gemini');
      assert.equal(overridden.model, 'cli-model');
      // Another provider type without a model: the file's model (meant for anthropic) is not sent to gemini.
      const other = await loadAgent(`${project.dir}/agent.yaml`, { createProvider, provider: { type: 'gemini' } });
      assert.equal(other.model, 'scripted-model');
      // The same type: the file's model stays.
      assert.equal((await loadAgent(`${project.dir}/agent.yaml`, { createProvider, provider: 'anthropic' })).model, 'file-model');
    } finally {
      await project.cleanup();
    }
  });

  test('createProvider errors (an unset api_key_env) name the file', async () => {
    const project = await tempProject({ 'agent.yaml': 'provider:\n  type: openai\n  api_key_env: AGENTLIB_TEST_SURELY_UNSET_KEY\n' });
    try {
      await assert.rejects(loadAgent(`${project.dir}/agent.yaml`), (error: Error) => error.message.startsWith(`${project.dir}/agent.yaml: `) && /AGENTLIB_TEST_SURELY_UNSET_KEY is not set/.test(error.message));
    } finally {
      await project.cleanup();
    }
  });
});
