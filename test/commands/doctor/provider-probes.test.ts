import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { probeProvider, probeTargets, type ProbeTarget } from '../../../commands/doctor/provider-probes.js';
import type { AgentFileConfig } from '../../../lib/config/types.js';
import { DEFAULT_AZURE_OPENAI_API_VERSION } from '../../../lib/providers/openai/azure-api-version.js';
import { jsonResponse, requestReceived, startReplayServer, type ReplayServer } from '../../support/replay-server.js';
import { closedPort, modelList } from '../doctor-helpers.js';

const KEY = 'sk-unit-probe-key-000111';

function target(targets: ProbeTarget[], id: string): ProbeTarget {
  const found = targets.find((t) => t.id === id);
  assert.ok(found, `no target ${id} in ${targets.map((t) => t.id).join(', ')}`);
  return found;
}

function configWith(provider: AgentFileConfig['provider']): AgentFileConfig {
  return { source: '/x/agent.yaml', baseDir: '/x', tools: [], ...(provider === undefined ? {} : { provider }) };
}

describe('doctor: provider targets', () => {
  test('one per key in the environment, at the adapters\' default or env base URLs; Ollama optional', () => {
    const targets = probeTargets({ OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY, GOOGLE_API_KEY: KEY, ANTHROPIC_BASE_URL: 'http://127.0.0.1:1234/' });
    assert.deepEqual(targets.map((t) => t.id), ['provider:openai', 'provider:anthropic', 'provider:gemini', 'provider:ollama']);
    assert.equal(target(targets, 'provider:openai').url, 'https://api.openai.com/v1/models');
    assert.equal(target(targets, 'provider:anthropic').url, 'http://127.0.0.1:1234/v1/models');
    assert.equal(target(targets, 'provider:anthropic').headers['x-api-key'], KEY);
    assert.equal(target(targets, 'provider:gemini').url, 'https://generativelanguage.googleapis.com/v1beta/models');
    assert.equal(target(targets, 'provider:gemini').keyVariable, 'GOOGLE_API_KEY');
    assert.equal(target(targets, 'provider:gemini').headers['x-goog-api-key'], KEY);
    const ollama = target(targets, 'provider:ollama');
    assert.equal(ollama.url, 'http://127.0.0.1:11434/api/tags');
    assert.equal(ollama.required, false);
    assert.ok(targets.filter((t) => t.provider !== 'ollama').every((t) => t.required));
  });

  test('OLLAMA_HOST makes Ollama required and is normalised like the adapter does', () => {
    const ollama = target(probeTargets({ OLLAMA_HOST: '10.0.0.5:11434' }), 'provider:ollama');
    assert.equal(ollama.url, 'http://10.0.0.5:11434/api/tags');
    assert.equal(ollama.required, true);
    assert.equal(target(probeTargets({ OLLAMA_HOST: ':9999' }), 'provider:ollama').url, 'http://127.0.0.1:9999/api/tags');
  });

  test('providers of the agent file: base_url and api_key_env win; a missing key is a problem', () => {
    const config = configWith([
      { type: 'openai', baseURL: 'http://gateway.local/v1', apiKeyEnv: 'GATEWAY_KEY' },
      { type: 'gemini' },
      'anthropic',
    ]);
    const targets = probeTargets({ GATEWAY_KEY: KEY }, config);
    const openai = target(targets, 'provider:openai');
    assert.equal(openai.url, 'http://gateway.local/v1/models');
    assert.equal(openai.keyVariable, 'GATEWAY_KEY');
    assert.equal(openai.headers.authorization, `Bearer ${KEY}`);
    assert.equal(target(targets, 'provider:gemini').problem?.reason, 'missing-key');
    assert.match(target(targets, 'provider:gemini').problem?.detail ?? '', /GEMINI_API_KEY or GOOGLE_API_KEY is not set/);
    assert.equal(target(targets, 'provider:anthropic').problem?.detail, 'no API key: ANTHROPIC_API_KEY is not set');
  });

  test('OpenAI at a custom base URL may be key-less (a local server), as the adapter allows', () => {
    const targets = probeTargets({ OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' }, configWith('openai'));
    const openai = target(targets, 'provider:openai');
    assert.equal(openai.problem, undefined);
    assert.deepEqual(openai.headers, {});
  });

  test('azure: the resource endpoint\'s model list with the api-version, the key in api-key; no endpoint is a problem', () => {
    const config = configWith({ type: 'azure', deployment: 'prod-4o', baseURL: 'https://acme.openai.azure.com/', apiVersion: '2025-01-01-preview' });
    const azure = target(probeTargets({ AZURE_OPENAI_API_KEY: KEY }, config), 'provider:azure');
    assert.equal(azure.url, 'https://acme.openai.azure.com/openai/models?api-version=2025-01-01-preview');
    assert.deepEqual(azure.headers, { 'api-key': KEY });
    assert.equal(azure.keyVariable, 'AZURE_OPENAI_API_KEY');
    assert.equal(azure.problem, undefined);
    const fromEnv = target(probeTargets({ AZURE_OPENAI_ENDPOINT: 'https://x.openai.azure.com/openai' }, configWith({ type: 'azure', deployment: 'd' })), 'provider:azure');
    assert.equal(fromEnv.url, `https://x.openai.azure.com/openai/models?api-version=${DEFAULT_AZURE_OPENAI_API_VERSION}`, "the adapter's default version");
    assert.deepEqual(fromEnv.apiVersion, { version: DEFAULT_AZURE_OPENAI_API_VERSION, source: "the adapter's default" });
    assert.deepEqual(azure.apiVersion, { version: '2025-01-01-preview', source: 'api_version in the agent file' });
    assert.equal(fromEnv.problem?.detail, 'no API key: AZURE_OPENAI_API_KEY is not set');
    const noEndpoint = target(probeTargets({ AZURE_OPENAI_API_KEY: KEY }, configWith({ type: 'azure', deployment: 'd' })), 'provider:azure');
    assert.equal(noEndpoint.url, '');
    assert.equal(noEndpoint.baseSource, 'AZURE_OPENAI_ENDPOINT');
  });

  test('azure from the environment alone: AZURE_OPENAI_API_KEY makes a required probe at AZURE_OPENAI_ENDPOINT', () => {
    const env = { AZURE_OPENAI_API_KEY: KEY, AZURE_OPENAI_ENDPOINT: 'https://acme.openai.azure.com/' };
    const targets = probeTargets(env);
    assert.deepEqual(targets.map((t) => t.id), ['provider:azure', 'provider:ollama']);
    const azure = target(targets, 'provider:azure');
    assert.equal(azure.provider, 'azure');
    assert.equal(azure.required, true);
    assert.equal(azure.url, `https://acme.openai.azure.com/openai/models?api-version=${DEFAULT_AZURE_OPENAI_API_VERSION}`);
    assert.deepEqual(azure.headers, { 'api-key': KEY });
    assert.equal(azure.keyVariable, 'AZURE_OPENAI_API_KEY');
    assert.equal(azure.baseSource, 'AZURE_OPENAI_ENDPOINT');
    assert.equal(azure.problem, undefined);
    // The version the adapter would send: AZURE_OPENAI_API_VERSION, else OPENAI_API_VERSION.
    assert.equal(target(probeTargets({ ...env, OPENAI_API_VERSION: '2024-10-21' }), 'provider:azure').url, 'https://acme.openai.azure.com/openai/models?api-version=2024-10-21');
    const both = target(probeTargets({ ...env, OPENAI_API_VERSION: '2024-10-21', AZURE_OPENAI_API_VERSION: '2024-12-01-preview' }), 'provider:azure');
    assert.equal(both.url, 'https://acme.openai.azure.com/openai/models?api-version=2024-12-01-preview');
    assert.deepEqual(both.apiVersion, { version: '2024-12-01-preview', source: 'AZURE_OPENAI_API_VERSION' });
    // A key without an endpoint: probed, and fails without a request (see below); an endpoint alone
    // (Entra ID, a token doctor cannot get) is not probed.
    assert.equal(target(probeTargets({ AZURE_OPENAI_API_KEY: KEY }), 'provider:azure').url, '');
    assert.ok(!probeTargets({ AZURE_OPENAI_ENDPOINT: 'https://acme.openai.azure.com' }).some((t) => t.provider === 'azure'));
    // An agent file naming azure is probed once, with its own settings.
    const named = probeTargets(env, configWith({ type: 'azure', deployment: 'd', apiVersion: '2024-10-21' }));
    assert.deepEqual(named.filter((t) => t.provider === 'azure').map((t) => t.url), ['https://acme.openai.azure.com/openai/models?api-version=2024-10-21']);
  });

  test('repeated endpoints are probed once; repeated labels are numbered', () => {
    const targets = probeTargets({ OPENAI_API_KEY: KEY }, configWith(['openai', { type: 'openai', baseURL: 'http://other/v1' }, 'openai']));
    assert.deepEqual(targets.map((t) => t.id), ['provider:openai', 'provider:openai#2', 'provider:ollama']);
  });
});

describe('doctor: probing a provider', () => {
  let server: ReplayServer;
  before(async () => {
    server = await startReplayServer();
  });
  after(async () => {
    await server.close();
  });

  test('Anthropic and Gemini: their auth headers, model counts and latency', async () => {
    server.enqueue(modelList(4), modelList(5, 'models'));
    const targets = probeTargets({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, GEMINI_API_KEY: KEY, GOOGLE_GEMINI_BASE_URL: server.url });
    const start = server.requests.length;
    const anthropic = await probeProvider(target(targets, 'provider:anthropic'), { timeoutMs: 2000 });
    const gemini = await probeProvider(target(targets, 'provider:gemini'), { timeoutMs: 2000 });
    assert.equal(anthropic.status, 'ok');
    assert.equal(anthropic.data?.models, 4);
    assert.equal(gemini.status, 'ok');
    assert.equal(gemini.data?.models, 5);
    const [a, g] = server.requests.slice(start);
    assert.equal(a?.path, '/v1/models');
    assert.equal(a?.headers['x-api-key'], KEY);
    assert.equal(a?.headers['anthropic-version'], '2023-06-01');
    assert.equal(g?.path, '/v1beta/models');
    assert.equal(g?.headers['x-goog-api-key'], KEY);
    assert.ok(!JSON.stringify([anthropic, gemini]).includes(KEY));
  });

  test('azure: a real probe sends api-key and api-version, and an unset endpoint fails without a request', async () => {
    server.enqueue(modelList(3));
    const azure = target(probeTargets({ AZURE_OPENAI_API_KEY: KEY }, configWith({ type: 'azure', deployment: 'd', baseURL: server.url })), 'provider:azure');
    const start = server.requests.length;
    const result = await probeProvider(azure, { timeoutMs: 2000 });
    assert.equal(result.status, 'ok', result.detail);
    assert.equal(result.data?.models, 3);
    const sent = server.requests[start];
    assert.equal(sent?.path, `/openai/models?api-version=${DEFAULT_AZURE_OPENAI_API_VERSION}`);
    assert.equal(result.data?.apiVersion, DEFAULT_AZURE_OPENAI_API_VERSION);
    assert.equal(sent?.headers['api-key'], KEY);
    assert.ok(!JSON.stringify(result).includes(KEY));
    const unset = await probeProvider(target(probeTargets({ AZURE_OPENAI_API_KEY: KEY }, configWith({ type: 'azure', deployment: 'd' })), 'provider:azure'), { timeoutMs: 2000 });
    assert.equal(unset.status, 'fail');
    assert.equal(unset.data?.reason, 'invalid-url');
    assert.equal(unset.hint, 'set AZURE_OPENAI_ENDPOINT to an http(s) URL');
    assert.equal(server.requests.length, start + 1);
  });

  test('azure: a 404 or 400 (an api-version the resource does not serve) names the endpoint and the api-version', async () => {
    const azure = target(probeTargets({ AZURE_OPENAI_API_KEY: KEY, AZURE_OPENAI_ENDPOINT: server.url, OPENAI_API_VERSION: '2023-01-01-bogus' }), 'provider:azure');
    server.enqueue(jsonResponse({ error: { code: '404', message: 'Resource not found' } }, 404), jsonResponse({ error: { code: 'BadRequest', message: 'API version not supported' } }, 400));
    const missing = await probeProvider(azure, { timeoutMs: 2000 });
    assert.equal(missing.status, 'fail');
    assert.equal(missing.hint, 'no model list at this URL: check AZURE_OPENAI_ENDPOINT and the api-version (2023-01-01-bogus, OPENAI_API_VERSION)');
    const refused = await probeProvider(azure, { timeoutMs: 2000 });
    assert.equal(refused.hint, 'unexpected answer: check AZURE_OPENAI_ENDPOINT and the api-version (2023-01-01-bogus, OPENAI_API_VERSION)');
    assert.equal(refused.data?.apiVersion, '2023-01-01-bogus');
  });

  test('403 is a rejected key, 429 a warning, 404 a wrong base URL, 500 a provider failure', async () => {
    const openai = target(probeTargets({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${server.url}/v1` }), 'provider:openai');
    server.enqueue(jsonResponse({}, 403), jsonResponse({}, 429), jsonResponse({}, 404), jsonResponse({}, 500));
    const forbidden = await probeProvider(openai, { timeoutMs: 2000 });
    assert.equal(forbidden.status, 'fail');
    assert.equal(forbidden.hint, 'key rejected: check OPENAI_API_KEY');
    const limited = await probeProvider(openai, { timeoutMs: 2000 });
    assert.equal(limited.status, 'warn');
    const missing = await probeProvider(openai, { timeoutMs: 2000 });
    assert.equal(missing.hint, 'no model list at this URL: check OPENAI_BASE_URL');
    const failed = await probeProvider(openai, { timeoutMs: 2000 });
    assert.equal(failed.status, 'fail');
    assert.equal(failed.data?.httpStatus, 500);
  });

  test('credentials in a base URL are sent as Basic auth and never shown', async () => {
    server.enqueue(modelList(0));
    const url = server.url.replace('http://', 'http://proxyuser:proxypass@');
    const openai = target(probeTargets({ OPENAI_BASE_URL: `${url}/v1` }, configWith('openai')), 'provider:openai');
    const start = server.requests.length;
    const result = await probeProvider(openai, { timeoutMs: 2000 });
    assert.equal(result.status, 'ok', result.detail);
    assert.equal(server.requests[start]?.headers.authorization, `Basic ${Buffer.from('proxyuser:proxypass').toString('base64')}`);
    assert.ok(!JSON.stringify(result).includes('proxypass'));
  });

  test('unreachable and timed out: "cannot reach", with the reason in data', async () => {
    const port = await closedPort();
    const refused = await probeProvider(target(probeTargets({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` }), 'provider:openai'), { timeoutMs: 2000 });
    assert.equal(refused.detail, `cannot reach 127.0.0.1:${port} (ECONNREFUSED)`);
    assert.equal(refused.data?.reason, 'unreachable');
    server.enqueue({ hang: true });
    const started = performance.now();
    const hung = await probeProvider(target(probeTargets({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${server.url}/v1` }), 'provider:openai'), { timeoutMs: 200 });
    assert.ok(performance.now() - started < 1500);
    assert.match(hung.detail, /^cannot reach 127\.0\.0\.1:\d+ \(no answer within 200 ms\)$/);
    assert.equal(hung.data?.reason, 'timeout');
  });

  test('an unconfigured Ollama that is not running is skipped, not failed', async () => {
    const port = await closedPort();
    const ollama = { ...target(probeTargets({}), 'provider:ollama'), url: `http://127.0.0.1:${port}/api/tags` };
    const result = await probeProvider(ollama, { timeoutMs: 1000 });
    assert.equal(result.status, 'skip');
    assert.match(result.detail, /not running at .*not configured/);
    assert.equal(result.required, false);
  });

  test('a running Ollama answers /api/tags', async () => {
    server.enqueue(modelList(2, 'models'));
    const start = server.requests.length;
    const result = await probeProvider(target(probeTargets({ OLLAMA_HOST: server.url }), 'provider:ollama'), { timeoutMs: 2000 });
    assert.equal(result.status, 'ok');
    assert.equal(result.data?.models, 2);
    assert.equal(server.requests[start]?.path, '/api/tags');
  });

  test('an invalid base URL fails without a request', async () => {
    const result = await probeProvider(target(probeTargets({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: 'not a url' }), 'provider:openai'), { timeoutMs: 1000 });
    assert.equal(result.status, 'fail');
    assert.equal(result.detail, 'invalid base URL (OPENAI_BASE_URL)');
  });

  test('a caller abort ends the probe as cancelled', async () => {
    server.enqueue({ hang: true });
    const controller = new AbortController();
    void requestReceived(server, server.requests.length).then(() => controller.abort());
    const result = await probeProvider(target(probeTargets({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${server.url}/v1` }), 'provider:openai'), { timeoutMs: 5000, signal: controller.signal });
    assert.equal(result.status, 'skip');
    assert.equal(result.data?.reason, 'cancelled');
  });
});
