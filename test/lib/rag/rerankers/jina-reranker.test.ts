import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ProviderConfigurationError } from '../../../../lib/core/errors/provider-configuration-error.js';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import type { SearchResult } from '../../../../lib/rag/document.js';
import { JinaReranker } from '../../../../lib/rag/rerankers/jina-reranker.js';

// The reply shape documented for POST https://api.jina.ai/v1/rerank.
const REPLY = {
  model: 'jina-reranker-v2-base-multilingual',
  usage: { total_tokens: 38 },
  results: [
    { index: 2, relevance_score: 0.9127 },
    { index: 0, relevance_score: 0.1043 },
  ],
};

const results: SearchResult[] = ['Espresso needs fine grounds.', 'Our office is closed on Sundays.', 'Refunds take five business days.'].map((text, i) => ({
  document: { id: `d${i}`, text, metadata: { source: `d${i}.md` } },
  score: 0.5,
}));

let server: Server;
let baseUrl: string;
const requests: { headers: IncomingMessage['headers']; body: Record<string, unknown> }[] = [];
let failures: { status: number; headers?: Record<string, string>; body: string }[] = [];

before(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      requests.push({ headers: req.headers, body: JSON.parse(raw) as Record<string, unknown> });
      const failure = failures.shift();
      if (failure) res.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers }).end(failure.body);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(REPLY));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('JinaReranker', () => {
  test('sends the documented request and maps the reply back onto the results', async () => {
    requests.length = 0;
    const reranker = new JinaReranker({ apiKey: 'jina_test_key', baseUrl });
    const out = await reranker.rerank('how long do refunds take', results, 2);
    assert.deepEqual(out.map((r) => [r.document.id, r.score]), [['d2', 0.9127], ['d0', 0.1043]]);
    assert.equal(requests[0]?.headers.authorization, 'Bearer jina_test_key');
    assert.deepEqual(requests[0]?.body, { model: 'jina-reranker-v2-base-multilingual', query: 'how long do refunds take', documents: results.map((r) => r.document.text), top_n: 2, return_documents: false });
  });

  test('a 429 with Retry-After is retried; a 401 is a ProviderError at once', async () => {
    requests.length = 0;
    failures = [{ status: 429, headers: { 'retry-after': '0' }, body: '{"detail":"rate limited"}' }];
    const reranker = new JinaReranker({ apiKey: 'k', baseUrl, retry: { baseDelayMs: 1, maxDelayMs: 1 } });
    assert.equal((await reranker.rerank('q', results, 1)).length, 1);
    assert.equal(requests.length, 2);
    failures = [{ status: 401, body: '{"detail":"invalid key"}' }];
    await assert.rejects(reranker.rerank('q', results, 1), (error: unknown) => ProviderError.isInstance(error) && error.status === 401 && /invalid key/.test(error.message));
    assert.equal(requests.length, 3);
  });

  test('the key comes from the argument or JINA_API_KEY', () => {
    const saved = process.env['JINA_API_KEY'];
    delete process.env['JINA_API_KEY'];
    try {
      assert.throws(() => new JinaReranker(), ProviderConfigurationError);
      process.env['JINA_API_KEY'] = 'from-env';
      assert.equal(new JinaReranker().name, 'jina');
    } finally {
      if (saved === undefined) delete process.env['JINA_API_KEY'];
      else process.env['JINA_API_KEY'] = saved;
    }
  });
});
