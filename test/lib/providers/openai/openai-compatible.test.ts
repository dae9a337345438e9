import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../../lib/agent/agent.js';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import { OpenAICompatibleProvider } from '../../../../lib/providers/openai/index.js';
import { fixture, jsonResponse, startReplayServer, type ReplayServer } from '../../../support/replay-server.js';
import { testRuntime } from '../../../support/agent-harness.js';

describe('OpenAICompatibleProvider', () => {
  let server: ReplayServer;
  before(async () => (server = await startReplayServer()));
  after(async () => server.close());

  test('talks Chat Completions to any /v1 server with its own name and model, without the OpenAI key', async () => {
    const saved = process.env['OPENAI_API_KEY'];
    process.env['OPENAI_API_KEY'] = 'sk-must-not-leak';
    try {
      const provider = new OpenAICompatibleProvider({ baseURL: `${server.url}/v1`, model: 'llama3.2', name: 'ollama-v1' });
      server.enqueue(jsonResponse(JSON.parse(fixture('openai/chat.text.nonstream.vercel.json').toString('utf8'))));
      const result = await new Agent({ provider, runtime: testRuntime() }).run('hi');
      const request = server.requests.at(-1)!;
      assert.equal(request.path, '/v1/chat/completions');
      assert.equal((request.json as { model: string }).model, 'llama3.2');
      assert.equal(request.headers['authorization'], undefined, 'the OpenAI key is never sent to another server');
      assert.equal(result.providerUsed, 'ollama-v1');
      assert.equal(provider.defaultModel, 'llama3.2');
    } finally {
      if (saved === undefined) delete process.env['OPENAI_API_KEY'];
      else process.env['OPENAI_API_KEY'] = saved;
    }
  });

  test('a key from a named environment variable; errors carry the provider name', async () => {
    process.env['GROQ_TEST_KEY'] = 'gsk-test';
    try {
      const provider = new OpenAICompatibleProvider({ baseURL: `${server.url}/openai/v1`, model: 'llama-3.1-8b-instant', name: 'groq', apiKeyEnv: 'GROQ_TEST_KEY' });
      server.enqueue(jsonResponse({ error: { message: 'Invalid API Key', type: 'invalid_request_error', code: 'invalid_api_key' } }, 401));
      await assert.rejects(provider.complete({ model: provider.defaultModel, messages: [{ role: 'user', content: 'x' }] }), (e: unknown) => ProviderError.isInstance(e) && e.provider === 'groq' && e.status === 401 && e.kind === 'auth');
      assert.equal(server.requests.at(-1)!.headers['authorization'], 'Bearer gsk-test');
    } finally {
      delete process.env['GROQ_TEST_KEY'];
    }
  });

  test('configuration errors: no model, no base URL, a named key variable that is unset; capabilities can be narrowed', () => {
    assert.throws(() => new OpenAICompatibleProvider({ baseURL: 'http://x/v1', model: '' }), /model is required/);
    assert.throws(() => new OpenAICompatibleProvider({ baseURL: '', model: 'm' }), /baseURL is required/);
    assert.throws(() => new OpenAICompatibleProvider({ baseURL: 'http://x/v1', model: 'm', apiKeyEnv: 'UNSET_VAR_FOR_TEST' }), /set UNSET_VAR_FOR_TEST/);
    assert.equal(new OpenAICompatibleProvider({ baseURL: 'http://x/v1', model: 'm', capabilities: { tools: false } }).capabilities.tools, false);
  });
});
