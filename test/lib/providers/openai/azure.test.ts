import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { z } from 'zod';
import { Agent } from '../../../../lib/agent/agent.js';
import { ProviderConfigurationError } from '../../../../lib/core/errors/provider-configuration-error.js';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import { createProvider } from '../../../../lib/providers/create-provider.js';
import { AzureOpenAIProvider, DEFAULT_AZURE_OPENAI_API_VERSION, resolveAzureApiVersion, type AzureOpenAIProviderOptions } from '../../../../lib/providers/openai/index.js';
import type { StreamPart } from '../../../../lib/providers/spec.js';
import { tool } from '../../../../lib/tools/tool.js';
import { testRuntime } from '../../../support/agent-harness.js';
import { fixture, jsonResponse, recordedResponses, sseResponse, startReplayServer, type RecordedRequest, type ReplayServer } from '../../../support/replay-server.js';
import { ask, bodyOf, collect, textOf } from './helpers.js';

/** Environment variables the tests set or must not be affected by. */
const VARIABLES = ['AZURE_OPENAI_ENDPOINT', 'AZURE_OPENAI_API_KEY', 'OPENAI_API_VERSION', 'AZURE_OPENAI_API_VERSION', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_ORG_ID', 'OPENAI_PROJECT_ID', 'AZURE_TEST_KEY'] as const;

const json = (name: string) => jsonResponse(fixture(`openai/${name}`).toString('utf8'));
const only = <T extends StreamPart['type']>(parts: StreamPart[], type: T) => parts.filter((p): p is Extract<StreamPart, { type: T }> => p.type === type);

/** The path and the query of a recorded request. */
function target(request: RecordedRequest): { path: string; query: Record<string, string> } {
  const url = new URL(request.path, 'http://replay');
  return { path: url.pathname, query: Object.fromEntries(url.searchParams) };
}

describe('AzureOpenAIProvider on the real AzureOpenAI client', () => {
  let server: ReplayServer;
  const saved = new Map<string, string | undefined>();
  before(async () => (server = await startReplayServer()));
  after(async () => server.close());
  beforeEach(() => {
    for (const name of VARIABLES) {
      saved.set(name, process.env[name]);
      delete process.env[name];
    }
  });
  afterEach(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  const azure = (options: Partial<AzureOpenAIProviderOptions> = {}) =>
    new AzureOpenAIProvider({ endpoint: server.url, apiKey: 'az-key', deployment: 'gpt-4o-prod', ...options });

  test('complete: routed by deployment with api-version and the api-key header; the reply parsed', async () => {
    // OpenAI's own settings must not leak into (or redirect) Azure calls.
    process.env['OPENAI_API_KEY'] = 'sk-openai-must-not-leak';
    process.env['OPENAI_BASE_URL'] = 'http://127.0.0.1:9/v1';
    process.env['OPENAI_ORG_ID'] = 'org-must-not-leak';
    process.env['OPENAI_PROJECT_ID'] = 'proj-must-not-leak';
    server.enqueue(json('chat.text.nonstream.vercel.json'));
    const provider = azure();
    assert.equal(provider.name, 'azure-openai');
    assert.equal(provider.defaultModel, 'gpt-4o-prod');
    const reply = await provider.complete({ model: provider.defaultModel, messages: [{ role: 'user', content: 'Invent a holiday' }], maxTokens: 300, temperature: 0.5 });
    assert.match(reply.message.content, /^\*\*Holiday Name:\*\* Galaxy Day/);
    assert.equal(reply.finishReason, 'stop');
    assert.equal(reply.model, 'gpt-4.1-nano-2025-04-14', 'the model Azure reports, not the deployment');
    assert.deepEqual(reply.usage, { promptTokens: 16, completionTokens: 363, totalTokens: 379, cachedPromptTokens: 0, reasoningTokens: 0 });
    const sent = server.requests.at(-1)!;
    assert.equal(sent.method, 'POST');
    assert.deepEqual(target(sent), { path: '/openai/deployments/gpt-4o-prod/chat/completions', query: { 'api-version': DEFAULT_AZURE_OPENAI_API_VERSION } });
    assert.equal(sent.headers['api-key'], 'az-key');
    assert.equal(sent.headers['authorization'], undefined, 'an API key is never sent as a bearer token');
    assert.equal(sent.headers['openai-organization'], undefined);
    assert.equal(sent.headers['openai-project'], undefined);
    const body = sent.json as Record<string, unknown>;
    // The SDK routes by the body's model and leaves it in the body (Azure ignores it).
    assert.equal(body['model'], 'gpt-4o-prod');
    assert.equal(body['stream'], false);
    assert.equal(body['max_tokens'], 300, 'a non-reasoning deployment gets max_tokens');
    assert.equal(body['max_completion_tokens'], undefined);
    assert.equal(body['temperature'], 0.5);
    assert.deepEqual(body['messages'], [{ role: 'user', content: 'Invent a holiday' }]);
  });

  test('stream: deployment path, stream_options.include_usage, text, usage and finish (split every 7 bytes)', async () => {
    server.enqueue(sseResponse(fixture('openai/chat.text.stream.include_usage.sse'), 7));
    const parts = await collect(azure({ apiVersion: '2024-10-01-preview' }).stream(ask('hi', { model: 'gpt-4o-prod' })));
    const sent = server.requests.at(-1)!;
    assert.deepEqual(target(sent), { path: '/openai/deployments/gpt-4o-prod/chat/completions', query: { 'api-version': '2024-10-01-preview' } });
    assert.equal(sent.headers['api-key'], 'az-key');
    assert.equal(sent.headers['authorization'], undefined);
    assert.equal(bodyOf(sent).stream, true);
    assert.deepEqual(bodyOf(sent).stream_options, { include_usage: true });
    assert.match(textOf(parts), /^I'm unable to/);
    assert.deepEqual(only(parts, 'usage'), [{ type: 'usage', usage: { promptTokens: 14, completionTokens: 30, totalTokens: 44, reasoningTokens: 0 } }]);
    assert.deepEqual(parts.at(-1), { type: 'finish', finishReason: 'stop', model: 'gpt-4o-2024-08-06' });
  });

  test("a request's model is a deployment: it picks the path; the token-limit name follows the family", async () => {
    const provider = azure();
    server.enqueue(json('chat.text.nonstream.vercel.json'));
    await provider.complete({ model: 'o3-mini', messages: [{ role: 'user', content: 'x' }], maxTokens: 50, temperature: 0.2 });
    let sent = server.requests.at(-1)!;
    assert.equal(target(sent).path, '/openai/deployments/o3-mini/chat/completions');
    let body = sent.json as Record<string, unknown>;
    assert.equal(body['max_completion_tokens'], 50, 'a deployment named after a reasoning model');
    assert.equal(body['max_tokens'], undefined);
    assert.equal(body['temperature'], undefined);

    // An arbitrary deployment name serving a reasoning model: the reasoningModel hint.
    server.enqueue(json('chat.text.nonstream.vercel.json'));
    await azure({ deployment: 'prod-chat', reasoningModel: true }).complete({ model: '', messages: [{ role: 'user', content: 'x' }], maxTokens: 50, temperature: 0.2 });
    sent = server.requests.at(-1)!;
    assert.equal(target(sent).path, '/openai/deployments/prod-chat/chat/completions', 'no model: the default deployment');
    body = sent.json as Record<string, unknown>;
    assert.equal(body['max_completion_tokens'], 50);
    assert.equal(body['max_tokens'], undefined);
    assert.equal(body['temperature'], undefined);

    // reasoningModel: false wins over a reasoning-looking name.
    server.enqueue(json('chat.text.nonstream.vercel.json'));
    await azure({ deployment: 'gpt-5-mini', reasoningModel: false }).complete({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'x' }], maxTokens: 50 });
    body = server.requests.at(-1)!.json as Record<string, unknown>;
    assert.equal(body['max_tokens'], 50);
    assert.equal(body['max_completion_tokens'], undefined);
  });

  test('an Agent tool round trip (chat.tool_call.roundtrip.stream.simonw-llm), both turns on the deployment', async () => {
    const path = 'openai/chat.tool_call.roundtrip.stream.simonw-llm.interactions.json';
    server.enqueue(...recordedResponses(path).map((r) => sseResponse(r.body!, 7)));
    const start = server.requests.length;
    const multiply = tool({ name: 'multiply', description: 'Multiply two numbers.', parameters: z.object({ a: z.number().int(), b: z.number().int() }), execute: ({ a, b }) => String(a * b) });
    const agent = new Agent({ provider: azure({ deployment: 'gpt-4o-mini-dep' }), tools: [multiply], runtime: testRuntime() });
    const stream = agent.stream('What is 1231 * 2331?');
    for await (const _event of stream) void _event;
    const result = await stream.result;
    assert.deepEqual(
      result.toolCalls.map((c) => [c.id, c.toolName, c.parameters]),
      [['call_1EYWDzueHEp8OsB8jJSEp7WB', 'multiply', { a: 1231, b: 2331 }]],
    );
    assert.match(result.content, /2,?869,?461/);
    assert.equal(result.providerUsed, 'azure-openai');
    assert.equal(result.usage.promptTokens, 54 + 87);
    assert.equal(result.usage.completionTokens, 20 + 26);
    const sent = server.requests.slice(start);
    assert.equal(sent.length, 2);
    for (const request of sent) {
      assert.deepEqual(target(request), { path: '/openai/deployments/gpt-4o-mini-dep/chat/completions', query: { 'api-version': DEFAULT_AZURE_OPENAI_API_VERSION } });
      assert.equal(request.headers['api-key'], 'az-key');
    }
    const turn2 = bodyOf(sent[1]!);
    assert.equal(turn2.tools?.[0]?.function.name, 'multiply');
    const assistant = turn2.messages.find((m) => m.role === 'assistant');
    assert.equal(assistant?.tool_calls?.[0]?.id, 'call_1EYWDzueHEp8OsB8jJSEp7WB');
    const toolResult = turn2.messages.find((m) => m.role === 'tool');
    assert.deepEqual([toolResult?.tool_call_id, toolResult?.content], ['call_1EYWDzueHEp8OsB8jJSEp7WB', String(1231 * 2331)]);
  });

  test('a 401 is a typed, non-retryable auth ProviderError of azure-openai (complete and stream)', async () => {
    const body = fixture('openai/error.401.invalid_api_key.json').toString('utf8');
    const isAuth = (error: unknown) =>
      ProviderError.isInstance(error) && error.provider === 'azure-openai' && error.status === 401 && error.kind === 'auth' && !error.retryable && error.model === 'gpt-4o-prod' && /Incorrect API key/.test(error.message);
    server.enqueue(jsonResponse(body, 401, { 'x-request-id': 'req_az_401' }));
    await assert.rejects(azure().complete(ask('x', { model: 'gpt-4o-prod' })), (error: unknown) => isAuth(error) && (error as ProviderError).requestId === 'req_az_401');
    server.enqueue(jsonResponse(body, 401));
    await assert.rejects(collect(azure().stream(ask('x', { model: 'gpt-4o-prod' }))), isAuth);
  });

  test('Entra ID: the token provider is asked per request and sent as a bearer token, never the api-key header', async () => {
    process.env['AZURE_OPENAI_API_KEY'] = 'env-key-not-used';
    let calls = 0;
    const provider = new AzureOpenAIProvider({ endpoint: `${server.url}/`, deployment: 'gpt-4o-prod', azureADTokenProvider: async () => `entra-token-${++calls}` });
    server.enqueue(json('chat.text.nonstream.vercel.json'), json('chat.text.nonstream.vercel.json'));
    await provider.complete(ask('x', { model: 'gpt-4o-prod' }));
    await provider.complete(ask('x', { model: 'gpt-4o-prod' }));
    const [first, second] = server.requests.slice(-2);
    assert.equal(target(first!).path, '/openai/deployments/gpt-4o-prod/chat/completions', 'a trailing slash on the endpoint is dropped');
    assert.equal(first!.headers['authorization'], 'Bearer entra-token-1');
    assert.equal(second!.headers['authorization'], 'Bearer entra-token-2');
    assert.equal(first!.headers['api-key'], undefined);
  });

  test('the default api-version is 2025-04-01-preview (reasoning deployments refuse the 2024-10-21 GA), on the deployment route', async () => {
    assert.equal(DEFAULT_AZURE_OPENAI_API_VERSION, '2025-04-01-preview');
    // An o-series deployment with no version configured anywhere.
    server.enqueue(json('chat.text.nonstream.vercel.json'));
    const provider = azure({ deployment: 'o4-mini-prod', reasoningModel: true });
    assert.equal(provider.apiVersion, '2025-04-01-preview');
    await provider.complete({ model: provider.defaultModel, messages: [{ role: 'user', content: 'x' }], maxTokens: 64 });
    const sent = server.requests.at(-1)!;
    assert.deepEqual(target(sent), { path: '/openai/deployments/o4-mini-prod/chat/completions', query: { 'api-version': '2025-04-01-preview' } });
    assert.equal((sent.json as Record<string, unknown>)['max_completion_tokens'], 64);
  });

  test('api-version precedence: the option, then AZURE_OPENAI_API_VERSION, then OPENAI_API_VERSION, then the default', async () => {
    assert.deepEqual(resolveAzureApiVersion(undefined, {}), { version: DEFAULT_AZURE_OPENAI_API_VERSION, source: 'default' });
    assert.deepEqual(resolveAzureApiVersion(undefined, { OPENAI_API_VERSION: '2024-10-21' }), { version: '2024-10-21', source: 'OPENAI_API_VERSION' });
    assert.deepEqual(resolveAzureApiVersion(undefined, { OPENAI_API_VERSION: '2024-10-21', AZURE_OPENAI_API_VERSION: ' 2025-01-01-preview ' }), { version: '2025-01-01-preview', source: 'AZURE_OPENAI_API_VERSION' });
    assert.deepEqual(resolveAzureApiVersion(' ', { AZURE_OPENAI_API_VERSION: '  ', OPENAI_API_VERSION: '2024-10-21' }), { version: '2024-10-21', source: 'OPENAI_API_VERSION' }, 'blank counts as unset');
    assert.deepEqual(resolveAzureApiVersion('2024-12-01-preview', { AZURE_OPENAI_API_VERSION: '2025-01-01-preview' }), { version: '2024-12-01-preview', source: 'explicit' });
    // The provider reads the environment the same way, and the option still wins.
    process.env['OPENAI_API_VERSION'] = '2024-10-21';
    process.env['AZURE_OPENAI_API_VERSION'] = '2025-01-01-preview';
    assert.equal(azure().apiVersion, '2025-01-01-preview');
    assert.equal(azure({ apiVersion: '2024-10-21' }).apiVersion, '2024-10-21');
    server.enqueue(json('chat.text.nonstream.vercel.json'));
    await azure().complete(ask('x', { model: 'gpt-4o-prod' }));
    assert.deepEqual(target(server.requests.at(-1)!).query, { 'api-version': '2025-01-01-preview' });
  });

  test('environment defaults: AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_KEY, OPENAI_API_VERSION', async () => {
    process.env['AZURE_OPENAI_ENDPOINT'] = server.url;
    process.env['AZURE_OPENAI_API_KEY'] = 'env-az-key';
    process.env['OPENAI_API_VERSION'] = '2025-04-01-preview';
    const provider = new AzureOpenAIProvider({ deployment: 'dep-from-code' });
    assert.equal(provider.endpoint, server.url);
    assert.equal(provider.apiVersion, '2025-04-01-preview');
    server.enqueue(json('chat.text.nonstream.vercel.json'));
    await provider.complete({ model: provider.defaultModel, messages: [{ role: 'user', content: 'x' }] });
    const sent = server.requests.at(-1)!;
    assert.deepEqual(target(sent), { path: '/openai/deployments/dep-from-code/chat/completions', query: { 'api-version': '2025-04-01-preview' } });
    assert.equal(sent.headers['api-key'], 'env-az-key');
    // Explicit options win over the environment; an endpoint given with /openai is not doubled.
    const explicit = new AzureOpenAIProvider({ endpoint: `${server.url}/openai`, apiKey: 'code-key', apiVersion: '2024-10-21', deployment: 'd' });
    server.enqueue(json('chat.text.nonstream.vercel.json'));
    await explicit.complete({ model: 'd', messages: [{ role: 'user', content: 'x' }] });
    const second = server.requests.at(-1)!;
    assert.deepEqual(target(second), { path: '/openai/deployments/d/chat/completions', query: { 'api-version': '2024-10-21' } });
    assert.equal(second.headers['api-key'], 'code-key');
  });

  test('configuration errors name what to set', () => {
    const isConfig = (pattern: RegExp) => (error: unknown) => ProviderConfigurationError.isInstance(error) && error.provider === 'azure-openai' && pattern.test(error.message);
    assert.throws(() => new AzureOpenAIProvider({ apiKey: 'k', deployment: 'd' }), isConfig(/endpoint missing: set AZURE_OPENAI_ENDPOINT/));
    assert.throws(() => new AzureOpenAIProvider({ endpoint: server.url, deployment: 'd' }), isConfig(/API key missing: set AZURE_OPENAI_API_KEY/));
    assert.throws(() => new AzureOpenAIProvider({ endpoint: server.url, apiKey: 'k', deployment: '' }), isConfig(/deployment is required/));
    assert.throws(() => new AzureOpenAIProvider({ endpoint: server.url, apiKey: 'k', deployment: 'd', azureADTokenProvider: async () => 't' }), isConfig(/either apiKey or azureADTokenProvider/));
  });

  test('embeddings go to the embeddings deployment', async () => {
    server.enqueue(json('embeddings.base64.json'));
    const provider = azure({ embeddingDeployment: 'embed-small' });
    const result = await provider.embed({ texts: ['hello'] });
    assert.ok(result.embeddings.length >= 1);
    const sent = server.requests.at(-1)!;
    assert.deepEqual(target(sent), { path: '/openai/deployments/embed-small/embeddings', query: { 'api-version': DEFAULT_AZURE_OPENAI_API_VERSION } });
    assert.equal((sent.json as { model: string }).model, 'embed-small');
    await assert.rejects(azure().embed({ texts: ['x'] }), (error: unknown) => ProviderConfigurationError.isInstance(error) && /embeddingDeployment/.test(error.message));
  });

  test("createProvider({ type: 'azure' }) builds it from YAML-style keys", async () => {
    process.env['AZURE_TEST_KEY'] = 'yaml-key';
    const provider = await createProvider({ type: 'azure', deployment: 'gpt-4o-prod', base_url: server.url, api_version: '2024-10-21', api_key_env: 'AZURE_TEST_KEY', timeout_ms: 5000 });
    assert.ok(provider instanceof AzureOpenAIProvider);
    assert.equal(provider.name, 'azure-openai');
    assert.equal(provider.defaultModel, 'gpt-4o-prod');
    server.enqueue(json('chat.text.nonstream.vercel.json'));
    const reply = await provider.complete({ model: provider.defaultModel, messages: [{ role: 'user', content: 'x' }] });
    assert.equal(reply.finishReason, 'stop');
    const sent = server.requests.at(-1)!;
    assert.deepEqual(target(sent), { path: '/openai/deployments/gpt-4o-prod/chat/completions', query: { 'api-version': '2024-10-21' } });
    assert.equal(sent.headers['api-key'], 'yaml-key');

    // camelCase keys; `model` names the deployment when `deployment` is absent; the reasoning hint.
    const fromModel = await createProvider({ type: 'azure', model: 'o-series-prod', baseURL: server.url, apiKey: 'k', apiVersion: '2024-10-21', reasoningModel: true });
    assert.equal(fromModel.defaultModel, 'o-series-prod');
    server.enqueue(json('chat.text.nonstream.vercel.json'));
    await fromModel.complete({ model: fromModel.defaultModel, messages: [{ role: 'user', content: 'x' }], maxTokens: 10 });
    assert.equal((server.requests.at(-1)!.json as Record<string, unknown>)['max_completion_tokens'], 10);

    await assert.rejects(createProvider({ type: 'azure', base_url: server.url, apiKey: 'k' }), /needs deployment/);
    await assert.rejects(createProvider({ type: 'azure', deployment: 'd', apiKey: 'k' }), (error: unknown) => ProviderConfigurationError.isInstance(error) && /AZURE_OPENAI_ENDPOINT/.test(error.message));
  });

  test('in a fallback chain the entry is labelled azure-openai and keeps its deployment', async () => {
    const chain = await createProvider([
      { type: 'azure', deployment: 'primary-dep', base_url: server.url, apiKey: 'k' },
      { type: 'openai-compatible', base_url: `${server.url}/v1`, model: 'backup', apiKey: 'k2' },
    ]);
    server.enqueue(json('chat.text.nonstream.vercel.json'));
    const result = await new Agent({ provider: chain, runtime: testRuntime() }).run('hi');
    assert.equal(result.providerUsed, 'azure-openai');
    assert.equal(target(server.requests.at(-1)!).path, '/openai/deployments/primary-dep/chat/completions');
  });
});
