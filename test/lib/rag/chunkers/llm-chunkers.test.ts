import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigurationError } from '../../../../lib/core/errors/configuration-error.js';
import { AgentUsage } from '../../../../lib/core/usage.js';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import { ScriptedProvider } from '../../../../lib/providers/scripted.js';
import { ContextualChunker } from '../../../../lib/rag/chunkers/contextual-chunker.js';
import { SemanticChunker } from '../../../../lib/rag/chunkers/semantic-chunker.js';
import { sentenceSpans } from '../../../../lib/rag/chunkers/sentences.js';
import { TextSplitter } from '../../../../lib/rag/chunkers/text-splitter.js';
import type { EmbeddingProvider } from '../../../../lib/rag/embedders/embedding-provider.js';

/** An embedder whose vector says which topic a sentence is about (cats or tax), so the cut points are known. */
const topicEmbedder: EmbeddingProvider = {
  name: 'topic',
  dimensions: 2,
  embed: (texts) => Promise.resolve(texts.map((t) => (/cat|kitten|purr/i.test(t) ? [1, 0] : [0, 1]))),
};

const TEXT = 'Cats purr. A kitten sleeps. Cats climb! Tax returns are due in April. File your tax early? Late tax costs more.';

describe('SemanticChunker', () => {
  test('cuts where neighbouring sentences stop being similar', async () => {
    assert.equal(sentenceSpans(TEXT).length, 6);
    const chunks = await new SemanticChunker({ embedder: topicEmbedder }).split([{ text: TEXT, metadata: { source: 't' } }]);
    assert.deepEqual(chunks.map((c) => c.text), ['Cats purr. A kitten sleeps. Cats climb!', 'Tax returns are due in April. File your tax early? Late tax costs more.']);
    const second = chunks[1];
    assert.equal(TEXT.slice(second?.metadata['start'] as number, second?.metadata['end'] as number), second?.text);
  });

  test('maxSentences caps a chunk, minSentences holds a cut back; bounds are checked', async () => {
    const capped = await new SemanticChunker({ embedder: topicEmbedder, maxSentences: 2 }).split([{ text: TEXT, metadata: {} }]);
    assert.deepEqual(capped.map((c) => sentenceSpans(c.text).length), [2, 1, 2, 1]);
    const held = await new SemanticChunker({ embedder: topicEmbedder, minSentences: 4 }).split([{ text: TEXT, metadata: {} }]);
    assert.deepEqual(held.map((c) => sentenceSpans(c.text).length), [6]);
    assert.throws(() => new SemanticChunker({ embedder: topicEmbedder, threshold: 1.5 }), ConfigurationError);
    assert.throws(() => new SemanticChunker({ embedder: topicEmbedder, maxSentences: 51 }), ConfigurationError);
    assert.throws(() => new SemanticChunker({ embedder: topicEmbedder, minSentences: 0 }), ConfigurationError);
  });
});

describe('ContextualChunker', () => {
  test('one call per chunk writes metadata.context and a "[Context] " prefix; the document shown is capped; usage counted', async () => {
    const provider = new ScriptedProvider({ respond: (_req, i) => ({ text: `  Context number ${i}.\n`, usage: { promptTokens: 10, completionTokens: 3, costUsd: 0.001 } }) });
    const usage = new AgentUsage();
    const text = `${'First part. '.repeat(10)}\n\n${'Second part. '.repeat(10)}`;
    const chunker = new ContextualChunker({ provider, chunker: new TextSplitter({ chunkSize: 150, chunkOverlap: 0 }), maxDocumentChars: 50, usage });
    const chunks = await chunker.split([{ text, metadata: { source: 'doc.md' } }]);
    assert.equal(chunks.length, 2);
    assert.equal(provider.requests.length, 2);
    assert.deepEqual(chunks.map((c) => c.metadata['context']), ['Context number 0.', 'Context number 1.']);
    assert.ok(chunks[0]?.text.startsWith('[Context] Context number 0.\n\nFirst part.'));
    assert.equal(chunks[1]?.metadata['source'], 'doc.md');
    const prompt = provider.requests[1]?.messages[0]?.content ?? '';
    assert.match(prompt, /<document>\n.{50}\n\[… document cut at 50 characters …\]/s);
    assert.match(prompt, /<chunk>\nSecond part\./);
    assert.equal(usage.llmCalls, 2);
    assert.equal(usage.promptTokens, 20);
  });

  test('a failing call is retried under the retry policy, then thrown', async () => {
    let calls = 0;
    const provider = new ScriptedProvider({
      respond: () => {
        calls += 1;
        return calls === 1 ? { error: new ProviderError('busy', { provider: 'scripted', status: 503 }) } : 'ok';
      },
    });
    const chunker = new ContextualChunker({ provider, retry: { baseDelayMs: 1, maxDelayMs: 1 } });
    const chunks = await chunker.split([{ text: 'Short text.', metadata: {} }]);
    assert.equal(calls, 2);
    assert.equal(chunks[0]?.metadata['context'], 'ok');
    const failing = new ScriptedProvider({ respond: () => ({ error: new ProviderError('bad key', { provider: 'scripted', status: 401 }) }) });
    await assert.rejects(new ContextualChunker({ provider: failing }).split([{ text: 'x', metadata: {} }]), /bad key/);
  });
});
