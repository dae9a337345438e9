import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { priceEmbedding } from '../../../../lib/providers/models/pricing.js';
import { fixture, jsonResponse, recordedRequests, recordedResponses, type ReplayServer } from '../../../support/replay-server.js';
import { geminiOn, startServer } from './harness.js';

function vectors(path: string): { embeddings: { values: number[] }[] } {
  return JSON.parse(fixture(path).toString('utf8')) as { embeddings: { values: number[] }[] };
}

/** The SDK adds `role: 'user'` to each request's content (the recorders' clients did not); otherwise equal. */
function withoutRole(body: unknown): unknown {
  const { requests } = body as { requests: { content: { role?: string } }[] };
  return { requests: requests.map(({ content: { role: _role, ...content }, ...rest }) => ({ ...rest, content })) };
}

describe('GeminiProvider.embed (batchEmbedContents)', () => {
  let server: ReplayServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('one text with outputDimensionality 768 (llm-gemini): request as recorded, vector as recorded, usage estimated and priced', async () => {
    const file = 'google/batchEmbedContents.768.llm-gemini.interactions.json';
    server.enqueue(...recordedResponses(file));
    const first = server.requests.length;
    const response = await geminiOn(server).embed({ model: 'gemini-embedding-001', texts: ['Some text goes here'], dimensions: 768 });
    assert.equal(response.model, 'gemini-embedding-001');
    assert.deepEqual(response.embeddings, [vectors('google/batchEmbedContents.768.llm-gemini.json').embeddings[0]!.values]);
    assert.equal(response.embeddings[0]!.length, 768);
    // No usage reported: 'Some text goes here' is 19 characters, ceil(19 / 4) = 5 tokens at $0.15 / 1M.
    assert.deepEqual(response.usage, { tokens: 5, costUsd: priceEmbedding('gemini-embedding-001', 5), estimated: true });
    assert.ok(response.usage.costUsd > 0);
    assert.equal(server.requests[first]!.path, '/v1beta/models/gemini-embedding-001:batchEmbedContents');
    assert.deepEqual(withoutRole(server.requests[first]!.json), recordedRequests(file)[0]!.body);
  });

  test('several texts (llm-gemini batch): vectors in order; the SDK drops usageMetadata, so the tokens are estimated (chars / 4), priced and marked estimated', async () => {
    const file = 'google/batchEmbedContents.batch.llm-gemini.interactions.json';
    server.enqueue(...recordedResponses(file));
    const first = server.requests.length;
    const response = await geminiOn(server).embed({ model: 'gemini-embedding-2', texts: ['First text', 'Second text'], dimensions: 768 });
    const recorded = vectors('google/batchEmbedContents.batch.llm-gemini.json').embeddings.map((e) => e.values);
    assert.deepEqual(response.embeddings, recorded);
    // The recorded body reports usageMetadata.promptTokenCount 4, but @google/genai 1.52 does not pass
    // it through: 'First text' (10 chars) and 'Second text' (11) are 3 + 3 estimated tokens.
    assert.deepEqual(response.usage, { tokens: 6, costUsd: priceEmbedding('gemini-embedding-2', 6), estimated: true });
    assert.ok(response.usage.costUsd > 0, 'a cost is reported');
    assert.deepEqual(withoutRole(server.requests[first]!.json), recordedRequests(file)[0]!.body);
  });

  test('taskType and dimensions (pydantic): sent as recorded', async () => {
    const file = 'google/batchEmbedContents.task_type.pydantic.interactions.json';
    server.enqueue(...recordedResponses(file));
    const first = server.requests.length;
    const response = await geminiOn(server).embed({ model: 'gemini-embedding-2-preview', texts: ['Hello, world!'], taskType: 'RETRIEVAL_QUERY', dimensions: 768 });
    assert.deepEqual(response.embeddings, vectors('google/batchEmbedContents.task_type.pydantic.json').embeddings.map((e) => e.values));
    assert.deepEqual(withoutRole(server.requests[first]!.json), recordedRequests(file)[0]!.body);
  });

  test('more than 100 texts are split into batches of 100, order kept; default embedding model', async () => {
    const texts = Array.from({ length: 150 }, (_, i) => `t${i}`);
    const batch = (from: number, n: number) => jsonResponse({ embeddings: Array.from({ length: n }, (_, i) => ({ values: [from + i] })) });
    server.enqueue(batch(0, 100), batch(100, 50));
    const first = server.requests.length;
    const response = await geminiOn(server).embed({ texts });
    assert.deepEqual(response.embeddings, texts.map((_, i) => [i]));
    assert.equal(response.model, 'gemini-embedding-001');
    const sent = server.requests.slice(first).map((r) => (r.json as { requests: unknown[] }).requests.length);
    assert.deepEqual(sent, [100, 50]);
    // 't0'…'t9' are 1 token each, 't10'…'t149' 1 each too (ceil(3 / 4)): 150, over both batches.
    assert.deepEqual(response.usage, { tokens: 150, costUsd: priceEmbedding('gemini-embedding-001', 150), estimated: true });
  });

  test('a model the registry does not know: estimated tokens, cost 0', async () => {
    server.enqueue(jsonResponse({ embeddings: [{ values: [1, 2] }] }));
    const response = await geminiOn(server).embed({ model: 'my-tuned-embedder', texts: ['abcdefgh'] });
    assert.deepEqual(response.usage, { tokens: 2, costUsd: 0, estimated: true });
  });

  test('a reply with the wrong number of vectors is a typed error', async () => {
    server.enqueue(jsonResponse({ embeddings: [] }));
    await assert.rejects(geminiOn(server).embed({ texts: ['a'] }), (error: Error & { provider?: string; kind?: string }) => error.name === 'ProviderError' && error.provider === 'gemini');
  });
});
