import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildAgentConfig } from '../../../lib/config/load-agent.js';
import { parseAgentConfig } from '../../../lib/config/parse-agent-config.js';
import { Agent } from '../../../lib/agent/agent.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import type { Provider } from '../../../lib/providers/spec.js';
import { testRuntime } from '../../support/agent-harness.js';
import { brief, issuesOf } from './project.js';

const YAML = `
provider: openai
memory:
  max_messages: 2
  summarize_on_trim: true
  summarize_provider: { type: anthropic }
  summarize_model: small
  summarize_max_tokens: 90
`;

describe('agent YAML: memory:', () => {
  test('builds the conversation window with its own summary provider, model and max tokens', async () => {
    const main = new ScriptedProvider({ name: 'main', respond: () => 'answer' });
    const summaries = new ScriptedProvider({ name: 'summaries', respond: () => 'short summary' });
    const created: unknown[] = [];
    const config = await buildAgentConfig(parseAgentConfig(YAML, { env: {} }), {
      createProvider: (spec): Promise<Provider> => {
        created.push(spec);
        return Promise.resolve(created.length === 1 ? main : summaries);
      },
    });
    const agent = new Agent({ ...config, runtime: testRuntime() });
    await agent.run('one');
    await agent.run('two');
    assert.deepEqual(created[1], { type: 'anthropic' });
    assert.equal(agent.memory?.maxMessages, 2);
    assert.equal(agent.memory?.summary, 'short summary');
    assert.equal(summaries.requests[0]?.model, 'small');
    assert.equal(summaries.requests[0]?.maxTokens, 90);
    assert.equal(main.requests.length, 2, 'the agent provider made no summary');
    const other = new Agent({ ...config, runtime: testRuntime() });
    assert.notEqual(other.memory, agent.memory, 'every agent built from the config gets its own memory');
  });

  test('the spec flat names move under memory; entity_memory is its own top-level key', () => {
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('provider: openai\nsummarize_model: x\nentity_memory: true\n', { env: {} }))).map((line) => line.replace(/:.*?"/, ':"')), [
      '2:"summarize_model" under the top level → memory.summarize_model',
    ]);
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('provider: openai\nmemory:\n  entity_memory: true\n', { env: {} }))), ['3:3 unknown key "entity_memory" under "memory"']);
  });
});
