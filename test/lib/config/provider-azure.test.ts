import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadAgent } from '../../../lib/config/load-agent.js';
import { parseAgentConfig } from '../../../lib/config/parse-agent-config.js';
import { createProvider } from '../../../lib/providers/create-provider.js';
import { AzureOpenAIProvider } from '../../../lib/providers/openai/index.js';
import { brief, issuesOf, tempProject } from './project.js';

describe('agent YAML: provider type azure', () => {
  test('the azure keys map to the createProvider spec (camelCase)', () => {
    const yaml =
      'provider:\n  type: azure\n  deployment: gpt-4o-prod\n  base_url: https://x.openai.azure.com\n  api_version: 2024-10-21\n  api_key_env: AZURE_OPENAI_API_KEY\n  reasoning_model: false\n  timeout_ms: 5000\n';
    assert.deepEqual(parseAgentConfig(yaml).provider, {
      type: 'azure',
      deployment: 'gpt-4o-prod',
      baseURL: 'https://x.openai.azure.com',
      apiVersion: '2024-10-21',
      apiKeyEnv: 'AZURE_OPENAI_API_KEY',
      reasoningModel: false,
      timeoutMs: 5000,
    });
  });

  test('model may name the deployment; azure fits in a fallback chain', () => {
    const yaml = 'provider:\n  - { type: azure, model: gpt-4o-prod }\n  - openai\n';
    assert.deepEqual(parseAgentConfig(yaml).provider, [{ type: 'azure', model: 'gpt-4o-prod' }, 'openai']);
  });

  test('mistakes: no deployment, the bare name, azure keys on another provider, a non-boolean reasoning_model', () => {
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('provider:\n  type: azure\n  base_url: https://x.openai.azure.com\n'))), [
      '2:3 provider "azure" needs "deployment" (or "model": the deployment name)',
    ]);
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('provider: azure\n'))), ['1:11 provider "azure" needs "deployment": write it as a mapping']);
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('provider:\n  type: openai\n  api_version: 2024-10-21\n'))), ['2:3 "api_version" is only for provider "azure" (this one is "openai")']);
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('provider:\n  type: openai\n  deployment: d\n'))), ['2:3 "deployment" is only for provider "azure" (this one is "openai")']);
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('provider:\n  type: azure\n  deployment: d\n  reasoning_model: yes please\n'))), [
      '4:20 "provider.reasoning_model" must be true or false; got the string "yes please"',
    ]);
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('provider:\n  type: azure\n  deployment: d\n  apiversion: x\n'))), ['4:3 unknown key "apiversion" under "provider" → api_version']);
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('provider: azur\n'))), ['1:11 unknown provider "azur" (known: openai, anthropic, gemini, ollama, openai-compatible, azure) → azure']);
  });

  test('loadAgent builds an AzureOpenAIProvider from the file (no request is made)', async () => {
    const saved = process.env['AZURE_YAML_TEST_KEY'];
    process.env['AZURE_YAML_TEST_KEY'] = 'az-key';
    const project = await tempProject({
      'agent.yaml': 'provider:\n  type: azure\n  deployment: gpt-4o-prod\n  base_url: https://example-resource.openai.azure.com\n  api_version: 2024-10-21\n  api_key_env: AZURE_YAML_TEST_KEY\n',
    });
    try {
      const built: unknown[] = [];
      const agent = await loadAgent(`${project.dir}/agent.yaml`, { createProvider: async (spec) => {
        const provider = await createProvider(spec);
        built.push(provider);
        return provider;
      } });
      assert.equal(agent.providerName, 'azure-openai');
      assert.equal(agent.model, 'gpt-4o-prod');
      const [provider] = built;
      assert.ok(provider instanceof AzureOpenAIProvider);
      assert.equal(provider.apiVersion, '2024-10-21');
      assert.equal(provider.endpoint, 'https://example-resource.openai.azure.com');
      assert.equal(provider.deployment, 'gpt-4o-prod');
    } finally {
      if (saved === undefined) delete process.env['AZURE_YAML_TEST_KEY'];
      else process.env['AZURE_YAML_TEST_KEY'] = saved;
      await project.cleanup();
    }
  });
});
