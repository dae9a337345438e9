import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { GoogleGenAI } from '@google/genai';
import { ProviderConfigurationError } from '../../../../lib/core/errors/provider-configuration-error.js';
import { DEFAULT_GEMINI_TIMEOUT_MS, GeminiProvider } from '../../../../lib/providers/gemini/index.js';
import { DEFAULT_OPENAI_TIMEOUT_MS } from '../../../../lib/providers/openai/index.js';
import { defaultModelFor } from '../../../../lib/providers/models/defaults.js';
import { jsonResponse, type ReplayServer } from '../../../support/replay-server.js';
import { ask, startServer } from './harness.js';

const saved = { GEMINI_API_KEY: process.env.GEMINI_API_KEY, GOOGLE_API_KEY: process.env.GOOGLE_API_KEY };
const OK = jsonResponse({ candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] });

describe('GeminiProvider configuration', () => {
  let server: ReplayServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  test('no key anywhere: ProviderConfigurationError naming both variables', () => {
    delete process.env.GEMINI_API_KEY;
    delete process.env.GOOGLE_API_KEY;
    assert.throws(
      () => new GeminiProvider(),
      (error: unknown) => ProviderConfigurationError.isInstance(error) && error.provider === 'gemini' && /GEMINI_API_KEY/.test(error.message) && /GOOGLE_API_KEY/.test(error.message),
    );
  });

  test('GEMINI_API_KEY wins over GOOGLE_API_KEY; GOOGLE_API_KEY alone works; sent as x-goog-api-key', async () => {
    process.env.GEMINI_API_KEY = 'from-gemini';
    process.env.GOOGLE_API_KEY = 'from-google';
    server.enqueue(OK, OK);
    let first = server.requests.length;
    await new GeminiProvider({ baseURL: server.url }).complete(ask('hi'));
    assert.equal(server.requests[first]!.headers['x-goog-api-key'], 'from-gemini');
    delete process.env.GEMINI_API_KEY;
    first = server.requests.length;
    await new GeminiProvider({ baseURL: server.url }).complete(ask('hi'));
    assert.equal(server.requests[first]!.headers['x-goog-api-key'], 'from-google');
  });

  test('name, own default model, capabilities; an injected client is used as is', async () => {
    const provider = new GeminiProvider({ apiKey: 'k' });
    assert.equal(provider.name, 'gemini');
    assert.equal(provider.defaultModel, defaultModelFor('gemini'));
    assert.deepEqual(provider.capabilities, { tools: true, streaming: true, structuredOutput: true, vision: true, embeddings: true });
    assert.equal(new GeminiProvider({ apiKey: 'k', model: 'gemini-2.5-pro' }).defaultModel, 'gemini-2.5-pro');
    const client = new GoogleGenAI({ apiKey: 'injected', httpOptions: { baseUrl: server.url } });
    server.enqueue(OK);
    const first = server.requests.length;
    const response = await new GeminiProvider({ client, model: 'gemini-2.0-flash' }).complete({ model: '', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(response.message.content, 'ok');
    assert.equal(server.requests[first]!.headers['x-goog-api-key'], 'injected');
    assert.equal(server.requests[first]!.path, '/v1beta/models/gemini-2.0-flash:generateContent', 'an empty model falls back to the instance default');
  });

  test('per-call timeout: 600000 ms by default (like OpenAI), an explicit value wins', () => {
    assert.equal(DEFAULT_GEMINI_TIMEOUT_MS, 600_000);
    assert.equal(DEFAULT_GEMINI_TIMEOUT_MS, DEFAULT_OPENAI_TIMEOUT_MS);
    assert.equal(new GeminiProvider({ apiKey: 'k' }).timeoutMs, 600_000);
    assert.equal(new GeminiProvider({ apiKey: 'k', timeoutMs: 150 }).timeoutMs, 150);
    assert.equal(new GeminiProvider({ apiKey: 'k', timeoutMs: 0 }).timeoutMs, 0, '0 turns the timeout off');
  });
});
