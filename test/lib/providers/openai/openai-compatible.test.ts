import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../../lib/agent/agent.js';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import { OpenAICompatibleProvider } from '../../../../lib/providers/openai/index.js';
import { fixture, jsonResponse, startReplayServer, type ReplayServer } from '../../../support/replay-server.js';
import { eventLog, testRuntime } from '../../../support/agent-harness.js';

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

  test('OPENAI_ORG_ID / OPENAI_PROJECT_ID are never sent to a third-party server; explicit ones are', async () => {
    const saved = { org: process.env['OPENAI_ORG_ID'], project: process.env['OPENAI_PROJECT_ID'] };
    process.env['OPENAI_ORG_ID'] = 'org-secret-corp';
    process.env['OPENAI_PROJECT_ID'] = 'proj_internal';
    try {
      const ask = { model: 'llama3', messages: [{ role: 'user' as const, content: 'x' }] };
      server.enqueue(jsonResponse(fixture('openai/chat.text.nonstream.vercel.json').toString('utf8')));
      await new OpenAICompatibleProvider({ baseURL: `${server.url}/v1`, model: 'llama3', apiKey: 'gsk' }).complete(ask);
      const sent = server.requests.at(-1)!.headers;
      assert.equal(sent['openai-organization'], undefined);
      assert.equal(sent['openai-project'], undefined);
      server.enqueue(jsonResponse(fixture('openai/chat.text.nonstream.vercel.json').toString('utf8')));
      await new OpenAICompatibleProvider({ baseURL: `${server.url}/v1`, model: 'llama3', apiKey: 'gsk', organization: 'org-gw', project: 'proj-gw' }).complete(ask);
      const explicit = server.requests.at(-1)!.headers;
      assert.equal(explicit['openai-organization'], 'org-gw');
      assert.equal(explicit['openai-project'], 'proj-gw');
    } finally {
      for (const [key, value] of [['OPENAI_ORG_ID', saved.org], ['OPENAI_PROJECT_ID', saved.project]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  test('a reply without a usage block: complete() reports no usage (not zeros); the agent estimates it', async () => {
    const body = JSON.parse(fixture('openai/chat.text.nonstream.vercel.json').toString('utf8')) as Record<string, unknown>;
    delete body['usage'];
    const provider = new OpenAICompatibleProvider({ baseURL: `${server.url}/v1`, model: 'llama3', apiKey: 'k' });
    server.enqueue(jsonResponse(body));
    const response = await provider.complete({ model: 'llama3', messages: [{ role: 'user', content: 'Invent a holiday' }] });
    assert.equal(response.usage, undefined);
    assert.ok(response.message.content.length > 0);
    server.enqueue(jsonResponse(body));
    const log = eventLog();
    const result = await new Agent({ provider, runtime: testRuntime(), observers: [log.observer] }).run('Invent a holiday');
    assert.equal(log.of('usage')[0]?.usage.estimated, true);
    assert.ok(result.usage.promptTokens > 0);
    assert.ok(result.usage.completionTokens > 100, 'counted from the reply text');
  });
});
