import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AgentEvent } from '../../../lib/events/types.js';
import { loadAgent } from '../../../lib/config/load-agent.js';
import { parseAgentConfig } from '../../../lib/config/parse-agent-config.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { createEmbedder } from '../../../lib/rag/embedders/create-embedder.js';
import { indexSources } from '../../../lib/rag/indexer.js';
import { KnowledgeBase } from '../../../lib/rag/knowledge-base.js';
import { openVectorStore } from '../../../lib/rag/stores/open-vector-store.js';
import { closeAllStorage } from '../../../lib/storage/index.js';
import { issuesOf, tempProject } from './project.js';

describe('agent YAML: retrieval (also rag, knowledge)', () => {
  test('a URL or a mapping; rag and knowledge are the same key; snake_case fields camelCased', () => {
    assert.deepEqual(parseAgentConfig('retrieval: sqlite://kb.db\n').retrieval, { store: 'sqlite://kb.db' });
    assert.deepEqual(parseAgentConfig('rag:\n  store: lancedb://idx\n  top_k: 5\n  mode: hybrid\n  score_threshold: 0.1\n  embedder: hashing:256\n  tool_name: search_handbook\n').retrieval, {
      store: 'lancedb://idx',
      topK: 5,
      mode: 'hybrid',
      scoreThreshold: 0.1,
      embedder: 'hashing:256',
      toolName: 'search_handbook',
    });
    assert.deepEqual(parseAgentConfig('knowledge: postgres://u@localhost/db\n').retrieval, { store: 'postgres://u@localhost/db' });
  });

  test('mistakes are reported at their file:line:col', () => {
    const issues = issuesOf(() =>
      parseAgentConfig(['name: a', 'retrieval:', '  store: memory://', '  top_k: 0', '  embedder: word2vec', '  mode: fuzzy', '  topk: 3', 'rag: sqlite://kb.db', 'knowledge:', '  table: t'].join('\n')),
    );
    const at = issues.map((issue) => `${issue.line}:${issue.col} ${issue.path}: ${issue.message}`);
    assert.match(at[0] ?? '', /^3:10 retrieval\.store: .*must be the URL of an index.*memory:\/\/ store is empty in every new process/);
    assert.match(at[1] ?? '', /^4:10 retrieval\.top_k: /);
    assert.match(at[2] ?? '', /^5:13 retrieval\.embedder: .*hashing, openai, gemini, ollama, cohere/);
    assert.match(at[3] ?? '', /^6:9 retrieval\.mode: /);
    assert.match(at[4] ?? '', /^7:3 retrieval\.topk: unknown key "topk"/);
    assert.match(at[5] ?? '', /^8:6 rag: "rag" and "retrieval" both configure retrieval/);
    assert.match(at[6] ?? '', /^10:3 knowledge: "knowledge" and "retrieval" both configure retrieval/);
    assert.equal(issues.length, 7, at.join('\n'));
    const missing = issuesOf(() => parseAgentConfig('retrieval:\n  top_k: 2\n'));
    assert.match(missing[0]?.message ?? '', /missing the required key "store"/);
  });

  describe('the agent gets the search tool over the index, and cites its sources', () => {
    let dir = '';
    let cleanup = async (): Promise<void> => {};
    before(async () => {
      const project = await tempProject({
        'docs/leave.md': '# Leave\n\nEveryone gets 25 vacation days per year, plus public holidays.\n',
        'docs/coffee.md': '# Coffee\n\nThe espresso machine on floor 2 is descaled every month.\n',
        'agent.yaml': 'name: handbook\nprovider: openai\nretrieval:\n  store: sqlite://index/kb.db\n  top_k: 1\n  tool_name: search_handbook\n',
      });
      dir = project.dir;
      cleanup = project.cleanup;
      const kb = new KnowledgeBase({ store: openVectorStore('sqlite://index/kb.db', { cwd: dir }), embedder: await createEmbedder('hashing') });
      await indexSources(kb, ['docs'], { cwd: dir });
      await kb.store.close();
    });
    after(async () => {
      await closeAllStorage();
      await cleanup();
    });

    test('search_handbook returns the passage with its source; the answer cites it', async () => {
      const provider = new ScriptedProvider({
        replies: [{ toolCalls: [{ toolName: 'search_handbook', parameters: { query: 'how many vacation days' } }] }],
        respond: (request) => {
          const output = JSON.parse(request.messages.find((m) => m.role === 'tool')?.content ?? '{}') as { results: { source: string; text: string }[] };
          return `25 days [${output.results.map((r) => r.source).join(', ')}].`;
        },
      });
      const agent = await loadAgent(join(dir, 'agent.yaml'), { provider });
      assert.deepEqual(agent.tools.map((t) => t.name), ['search_handbook']);
      const stream = agent.stream('How many vacation days do I get?');
      const events: AgentEvent[] = [];
      for await (const event of stream) events.push(event);
      const result = await stream.result;
      assert.equal(result.content, '25 days [docs/leave.md].', 'top_k 1 and the path relative to the project, as indexed');
      const order = events.filter((e) => ['tool-start', 'retrieval-start', 'retrieval-end', 'tool-end'].includes(e.type)).map((e) => e.type);
      assert.deepEqual(order, ['tool-start', 'retrieval-start', 'retrieval-end', 'tool-end']);
      const start = events.find((e) => e.type === 'retrieval-start');
      const end = events.find((e) => e.type === 'retrieval-end');
      assert.ok(start?.type === 'retrieval-start' && end?.type === 'retrieval-end');
      assert.deepEqual({ query: start.query, mode: start.mode, topK: start.topK, toolName: start.toolName }, { query: 'how many vacation days', mode: 'vector', topK: 1, toolName: 'search_handbook' });
      assert.deepEqual({ results: end.results, sources: end.sources, embeddingTokens: end.embeddingTokens, callId: end.callId }, { results: 1, sources: ['docs/leave.md'], embeddingTokens: 0, callId: start.callId });
      assert.ok(end.durationMs >= 0);
    });
  });
});
