import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { loadAgent } from '../../../lib/config/load-agent.js';
import { loadAgentConfig } from '../../../lib/config/parse-agent-config.js';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { GuardrailError } from '../../../lib/core/errors/guardrail-error.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { tempProject } from './project.js';

const POLITICS = 'name: support\nprovider: openai\nguardrails:\n  input:\n    - { type: topic, keywords: [politics], action: block }\n';

describe('agent YAML: settings that were refused while their subsystem was missing now work', () => {
  let dir = '';
  let cleanup = async (): Promise<void> => {};
  before(async () => {
    const project = await tempProject({ 'politics.yaml': POLITICS, 'supported.yaml': 'name: ok\nprovider: openai\nretry:\n  max_retries: 1\nbudget:\n  max_cost_usd: 1\n' });
    dir = project.dir;
    cleanup = project.cleanup;
  });
  after(async () => cleanup());

  test('the topic guardrail that let a politics prompt through now blocks it (guardrails have landed): GuardrailError, no provider call', async () => {
    const provider = new ScriptedProvider({ replies: ['Here is my view on politics.'] });
    const agent = await loadAgent(join(dir, 'politics.yaml'), { provider });
    await assert.rejects(agent.run('What do you think about politics?'), (error: unknown) => GuardrailError.isInstance(error) && error.guardrail === 'topic');
    assert.equal(provider.requests.length, 0);
  });

  test('a supported key still loads', async () => {
    const config = await loadAgentConfig(join(dir, 'supported.yaml'));
    assert.deepEqual([config.retry, config.budget], [{ maxRetries: 1 }, { maxCostUsd: 1 }]);
  });
});

describe('new Agent({...}): options that would be ignored are refused with a ConfigurationError', () => {
  const provider = new ScriptedProvider({ replies: ['x'] });
  const refused = (options: Record<string, unknown>): ConfigurationError => {
    try {
      new Agent({ provider, ...options });
    } catch (error) {
      if (ConfigurationError.isInstance(error)) return error;
      throw error;
    }
    throw new Error(`expected new Agent(${JSON.stringify(Object.keys(options))}) to throw`);
  };

  test('an unknown option, also inside a group, with a did-you-mean; undefined options are absent', () => {
    const top = refused({ maxIteration: 3 });
    assert.deepEqual([top.key, top.suggestion], ['maxIteration', 'maxIterations']);
    assert.match(top.message, /^Unknown AgentConfig option "maxIteration" \(it would be ignored\); did you mean "maxIterations"\?$/);
    const nested = refused({ retry: { maxRetry: 1 } });
    assert.deepEqual([nested.key, nested.suggestion], ['retry.maxRetry', 'retry.maxRetries']);
    assert.equal(refused({ toolConfig: { recursive: true } }).key, 'toolConfig.recursive');
    assert.doesNotThrow(() => new Agent({ provider, ...({ guardrails: undefined } as object), retry: { maxRetries: 1 }, toolConfig: { parallel: false } }));
  });
});
