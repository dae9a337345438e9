import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { AgentUsage } from '../../../lib/core/usage.js';
import { CohereEmbedder, CohereReranker } from '../../../lib/rag/cohere.js';
import type { SearchResult } from '../../../lib/rag/document.js';

// Replies in the shape of Cohere's v2 API reference (POST /v2/embed, POST /v2/rerank), on loopback.
interface Seen {
  path: string;
  auth: string | undefined;
  body: Record<string, unknown>;
}
const seen: Seen[] = [];
let failures: { status: number; body: string; headers?: Record<string, string> }[] = [];
let server: Server;
let baseUrl: string;

before(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      seen.push({ path: req.url ?? '', auth: req.headers.authorization, body });
      const failure = failures.shift();
      if (failure) {
        res.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers }).end(failure.body);
        return;
      }
      if (req.url === '/v2/embed') {
        const texts = body['texts'] as string[];
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'emb-1',
            embeddings: { float: texts.map((t) => [t.length, 1, 0]) },
            texts,
            meta: { api_version: { version: '2' }, billed_units: { input_tokens: texts.length * 2 } },
            response_type: 'embeddings_by_type',
          }),
        );
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({ id: 'rr-1', results: [{ index: 1, relevance_score: 0.97 }, { index: 0, relevance_score: 0.12 }], meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } } }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('Cohere on its SDK', () => {
  test('embedder: 96 texts per request, input type by purpose, billed tokens into the usage', async () => {
    seen.length = 0;
    const embedder = new CohereEmbedder({ apiKey: 'co-test', baseUrl });
    const usage = new AgentUsage();
    const texts = Array.from({ length: 100 }, (_, i) => `text ${i}`);
    const vectors = await embedder.embed(texts, { usage });
    assert.equal(vectors.length, 100);
    assert.deepEqual(vectors[99], ['text 99'.length, 1, 0]);
    assert.deepEqual(seen.map((s) => (s.body['texts'] as string[]).length), [96, 4]);
    assert.equal(seen[0]?.body['input_type'], 'search_document');
    assert.deepEqual(seen[0]?.body['embedding_types'], ['float']);
    assert.equal(seen[0]?.auth, 'Bearer co-test');
    assert.equal(usage.embeddingTokens, 200);
    await embedder.embed(['q'], { purpose: 'query' });
    assert.equal(seen.at(-1)?.body['input_type'], 'search_query');
  });

  test('reranker: maps the results back, best first', async () => {
    const results: SearchResult[] = ['a', 'b', 'c'].map((text) => ({ document: { text, metadata: { source: `${text}.md` } }, score: 0 }));
    const out = await new CohereReranker({ apiKey: 'co-test', baseUrl }).rerank('q', results, 2);
    assert.deepEqual(out.map((r) => [r.document.text, r.score]), [['b', 0.97], ['a', 0.12]]);
    assert.equal(seen.at(-1)?.path, '/v2/rerank');
    assert.equal(seen.at(-1)?.body['top_n'], 2);
  });

  test('a 503 is retried under the agent policy (SDK retries off); a 401 is a ProviderError at once', async () => {
    seen.length = 0;
    failures = [{ status: 503, body: '{"message":"busy"}' }];
    const reranker = new CohereReranker({ apiKey: 'co-test', baseUrl, retry: { baseDelayMs: 1, maxDelayMs: 1 } });
    const one: SearchResult[] = [{ document: { text: 'x', metadata: {} }, score: 0 }, { document: { text: 'y', metadata: {} }, score: 0 }];
    assert.equal((await reranker.rerank('q', one, 1)).length, 1);
    assert.equal(seen.length, 2);
    failures = [{ status: 401, body: '{"message":"invalid api token"}' }];
    await assert.rejects(reranker.rerank('q', one, 1), (error: unknown) => ProviderError.isInstance(error) && error.status === 401 && /invalid api token/.test(error.message));
    assert.equal(seen.length, 3);
  });
});
