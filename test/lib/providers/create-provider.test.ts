import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createProvider } from '../../../lib/providers/create-provider.js';
import { FallbackProvider } from '../../../lib/providers/fallback.js';
import { Agent } from '../../../lib/agent/agent.js';
import { eventLog, testRuntime } from '../../support/agent-harness.js';
import { fixture, jsonResponse, startReplayServer } from '../../support/replay-server.js';

function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(vars)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  return fn().finally(() => {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  });
}

describe('createProvider', () => {
  test('by name, by object (snake_case YAML keys), each with its own default model', async () => {
    await withEnv({ OPENAI_API_KEY: 'sk-x', ANTHROPIC_API_KEY: 'sk-ant-x', GEMINI_API_KEY: 'g-x', OLLAMA_HOST: undefined }, async () => {
      const openai = await createProvider('openai');
      const anthropic = await createProvider({ type: 'anthropic', model: 'claude-sonnet-4-5' });
      const gemini = await createProvider('gemini');
      const ollama = await createProvider({ type: 'ollama', base_url: 'http://127.0.0.1:9' });
      assert.deepEqual([openai.name, anthropic.name, gemini.name, ollama.name], ['openai', 'anthropic', 'gemini', 'ollama']);
      assert.equal(anthropic.defaultModel, 'claude-sonnet-4-5');
      assert.equal(new Set([openai.defaultModel, gemini.defaultModel, ollama.defaultModel]).size, 3, 'never one model id for every provider');
    });
  });

  test('a list is a fallback chain whose entries keep their models', async () => {
    await withEnv({ OPENAI_API_KEY: 'sk-x', ANTHROPIC_API_KEY: 'sk-ant-x' }, async () => {
      const provider = await createProvider(['openai', { type: 'anthropic', model: 'claude-haiku-4-5' }]);
      assert.ok(provider instanceof FallbackProvider);
      assert.deepEqual(provider.status().map((s) => [s.label, s.model]), [['openai', 'gpt-4o-mini'], ['anthropic', 'claude-haiku-4-5']]);
    });
  });

  test('an azure entry of a list is called by its deployment, even when it names a model too', async () => {
    await withEnv({ OPENAI_API_KEY: 'sk-x', AZURE_OPENAI_API_KEY: 'az-key' }, async () => {
      const provider = await createProvider([
        { type: 'azure', deployment: 'prod-dep', model: 'gpt-4o', base_url: 'https://acme.openai.azure.com' },
        { type: 'azure', model: 'only-model-dep', base_url: 'https://acme.openai.azure.com', name: 'second' },
        'openai',
      ]);
      assert.ok(provider instanceof FallbackProvider);
      assert.deepEqual(provider.status().map((s) => s.model), ['prod-dep', 'only-model-dep', 'gpt-4o-mini']);
    });
  });

  test('keys from a named variable; openai-compatible servers', async () => {
    await withEnv({ MY_GROQ_KEY: 'gsk' }, async () => {
      const groq = await createProvider({ type: 'openai-compatible', name: 'groq', base_url: 'http://127.0.0.1:9/v1', model: 'llama-3.1-8b-instant', api_key_env: 'MY_GROQ_KEY' });
      assert.equal(groq.name, 'groq');
      assert.equal(groq.defaultModel, 'llama-3.1-8b-instant');
    });
  });

  test('clear configuration errors', async () => {
    await assert.rejects(createProvider('opneai' as never), /Unknown provider "opneai" — did you mean "openai"\?/);
    await assert.rejects(createProvider({ type: 'openai', api_key_env: 'NOT_SET_ANYWHERE' }), /NOT_SET_ANYWHERE is not set/);
    await assert.rejects(createProvider({ type: 'openai-compatible', model: 'm' }), /needs base_url/);
    await assert.rejects(createProvider([]), /at least one provider/);
    await withEnv({ ANTHROPIC_API_KEY: undefined }, async () => {
      await assert.rejects(createProvider('anthropic'), /ANTHROPIC_API_KEY/);
    });
  });

  test('list entries keep their name as label: providerUsed and provider-fallback tell two openai entries apart', async () => {
    const server = await startReplayServer();
    try {
      await withEnv({ OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: undefined }, async () => {
        const provider = await createProvider([
          { type: 'openai', name: 'primary', model: 'gpt-4o', base_url: `${server.url}/v1` },
          { type: 'openai', name: 'backup', base_url: `${server.url}/v1`, model: 'gpt-4o-mini' },
        ]);
        assert.ok(provider instanceof FallbackProvider);
        assert.deepEqual(provider.status().map((s) => [s.label, s.model]), [['primary', 'gpt-4o'], ['backup', 'gpt-4o-mini']]);
        server.enqueue(jsonResponse({ error: { message: 'The server is overloaded', type: 'server_error' } }, 503));
        server.enqueue(jsonResponse(fixture('openai/chat.text.nonstream.vercel.json').toString('utf8')));
        const log = eventLog();
        const result = await new Agent({ provider, observers: [log.observer], retry: { maxRetries: 0 }, runtime: testRuntime() }).run('hi');
        assert.equal(result.providerUsed, 'backup');
        assert.deepEqual(log.of('provider-fallback').map((e) => [e.from, e.to]), [['primary', 'backup']]);
      });
    } finally {
      await server.close();
    }
  });

  test('unnamed repeated entries get distinct labels; timeout_ms (YAML) is honoured', async () => {
    await withEnv({ OPENAI_API_KEY: 'sk-x' }, async () => {
      const provider = await createProvider(['openai', { type: 'openai', model: 'gpt-4o' }, { type: 'openai-compatible', name: 'local', base_url: 'http://127.0.0.1:9/v1', model: 'llama3' }]);
      assert.ok(provider instanceof FallbackProvider);
      assert.deepEqual(provider.status().map((s) => s.label), ['openai', 'openai#2', 'local']);
      const timed = await createProvider({ type: 'openai', timeout_ms: 5 });
      assert.equal((timed as unknown as { timeoutMs: number }).timeoutMs, 5);
    });
  });
});
