import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { HashingEmbedder } from '../../../lib/rag/embedders/hashing-embedder.js';
import { KnowledgeBase } from '../../../lib/rag/knowledge-base.js';
import { RAGAgent } from '../../../lib/rag/rag-agent.js';
import { InMemoryVectorStore } from '../../../lib/rag/stores/memory-vector-store.js';
import { HybridSearchTool, SemanticSearchTool } from '../../../lib/rag/tools/rag-tools.js';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentlib-rag-agent-'));
  mkdirSync(join(dir, 'policies'));
  writeFileSync(join(dir, 'policies', 'leave.md'), '# Leave\n\nEvery employee gets 25 vacation days per year.\n');
  writeFileSync(join(dir, 'policies', 'travel.md'), '# Travel\n\nTrain tickets are reimbursed in second class.\n');
  writeFileSync(join(dir, 'notes.txt'), 'The espresso machine is descaled monthly.');
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** A provider that searches once, then answers with the first source it was given. */
function searchingProvider(): ScriptedProvider {
  return new ScriptedProvider({
    embeddingDimensions: 32,
    replies: [{ toolCalls: [{ toolName: 'search_knowledge_base', parameters: { query: 'vacation days per year' } }] }],
    respond: (request) => {
      const toolMessage = request.messages.find((m) => m.role === 'tool');
      const output = JSON.parse(toolMessage?.content ?? '{}') as { results: { source: string; text: string }[] };
      const first = output.results[0];
      return `You get 25 days [${first?.source ?? '?'}].`;
    },
  });
}

describe('RAGAgent', () => {
  test('fromDirectory: the agent searches, the tool returns cited passages, the answer cites the source, embedding usage is in the run', async () => {
    const provider = searchingProvider();
    const agent = await RAGAgent.fromDirectory(dir, { provider, embedder: new HashingEmbedder() });
    assert.equal(await agent.knowledgeBase.store.count(), 3);
    const result = await agent.run('How many vacation days do I get?');
    assert.equal(result.content, 'You get 25 days [policies/leave.md].');
    const toolMessage = provider.requests[1]?.messages.find((m) => m.role === 'tool');
    const output = JSON.parse(toolMessage?.content ?? '{}') as { results: { source: string; score: number }[]; note: string };
    assert.equal(output.results.length, 3, 'top_k 3 by default');
    assert.match(output.note, /cite each fact with its source in square brackets/);
    assert.equal(provider.requests[0]?.system?.includes('cite each fact'), true);
  });

  test('the provider embedder is the default; its tokens land in the run usage', async () => {
    const provider = searchingProvider();
    const agent = await RAGAgent.fromFiles([join(dir, 'policies', 'leave.md'), join(dir, 'notes.txt')], { provider, scoreThreshold: -1 });
    const result = await agent.run('How many vacation days?');
    assert.ok(result.usage.embeddingTokens > 0, 'the query embedding is counted in the run');
    assert.ok(agent.indexingUsage.embeddingTokens > 0, 'embedding the chunks is counted in indexingUsage');
    assert.match(result.content, /\[.*leave\.md\]/);
  });

  test('scoreThreshold drops weak passages; a provider without embeddings needs an embedder', async () => {
    const provider = searchingProvider();
    const agent = await RAGAgent.fromDocuments(
      [
        { text: 'vacation days per year: 25', metadata: { source: 'a' } },
        { text: 'completely unrelated espresso', metadata: { source: 'b' } },
      ],
      { provider, embedder: new HashingEmbedder(), scoreThreshold: 0.5 },
    );
    await agent.run('q');
    const output = JSON.parse(provider.requests[1]?.messages.find((m) => m.role === 'tool')?.content ?? '{}') as { results: { source: string }[] };
    assert.deepEqual(output.results.map((r) => r.source), ['a']);
    const noEmbeddings = new ScriptedProvider({ capabilities: { embeddings: false } });
    await assert.rejects(RAGAgent.fromDocuments([], { provider: noEmbeddings }), ConfigurationError);
  });
});

describe('SemanticSearchTool and HybridSearchTool', () => {
  test('return cited passages; hybrid finds an exact keyword the lexical vector misses least', async () => {
    const kb = new KnowledgeBase({ store: new InMemoryVectorStore(), embedder: new HashingEmbedder() });
    await kb.addDocuments([
      { text: 'Error code E4711 means the boiler is empty.', metadata: { source: 'errors.md', page: 2 } },
      { text: 'Descale the machine every two months.', metadata: { source: 'care.md' } },
    ]);
    const ctx = { signal: new AbortController().signal, runId: 'r', callId: 'c', toolName: 't', context: undefined };
    const semantic = await SemanticSearchTool(kb).invoke({ query: 'descale machine', top_k: 1 }, ctx);
    assert.match(semantic.content, /"source":"care\.md"/);
    const hybrid = await HybridSearchTool(kb).invoke({ query: 'E4711', top_k: 1 }, ctx);
    assert.match(hybrid.content, /"source":"errors\.md#page=2"/);
  });
});
