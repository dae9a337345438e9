import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AgentUsage } from '../../../../lib/core/usage.js';
import { ScriptedProvider } from '../../../../lib/providers/scripted.js';
import { cosineSimilarity } from '../../../../lib/rag/embedders/embedding-provider.js';
import { HashingEmbedder } from '../../../../lib/rag/embedders/hashing-embedder.js';
import { ProviderEmbedder } from '../../../../lib/rag/embedders/provider-embedder.js';

describe('HashingEmbedder', () => {
  test('deterministic unit vectors; shared words and word parts score high, unrelated words about 0', async () => {
    const embedder = new HashingEmbedder();
    const [a, b, c, d, e] = await embedder.embed(['refund policy', 'refunds policies', 'the espresso machine', 'refund policy', 'car']);
    assert.equal(a?.length, 384);
    assert.ok(Math.abs(Math.hypot(...(a)) - 1) < 1e-9);
    assert.deepEqual(a, d);
    assert.ok(cosineSimilarity(a, b as number[]) > 0.4, 'shared trigrams count');
    assert.ok(Math.abs(cosineSimilarity(a, c as number[])) < 0.25);
    const [automobile] = await embedder.embed(['automobile']);
    assert.ok(Math.abs(cosineSimilarity(e as number[], automobile as number[])) < 0.3, 'not semantic: synonyms are unrelated');
    assert.equal(embedder.name, 'hashing-384');
  });
});

describe('ProviderEmbedder', () => {
  test('embeds through the provider adapter and adds the tokens and cost to the usage', async () => {
    const provider = new ScriptedProvider({ embeddingDimensions: 16 });
    const usage = new AgentUsage();
    const embedder = new ProviderEmbedder(provider, { model: 'm' });
    const vectors = await embedder.embed(['one', 'two three'], { usage });
    assert.equal(vectors.length, 2);
    assert.equal(embedder.dimensions, 16);
    assert.ok(usage.embeddingTokens > 0);
    assert.equal(usage.llmCalls, 0);
    assert.deepEqual(await embedder.embed([]), []);
  });
});
