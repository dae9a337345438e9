import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { KnowledgeGraphMemory, parseExtractedTriples, queryKeywords } from '../../../lib/memory/knowledge-graph/knowledge-graph-memory.js';
import { SQLiteTripleStore } from '../../../lib/memory/knowledge-graph/sqlite-triple-store.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { closeAllStorage } from '../../../lib/storage/index.js';
import { eventLog, testRuntime } from '../../support/agent-harness.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentlib-kg-'));
});
after(async () => {
  await closeAllStorage();
  await rm(dir, { recursive: true, force: true });
});

describe('KnowledgeGraphMemory', () => {
  test('queryRelevant picks triples by the keywords of a question (stop words and short words ignored)', async () => {
    const graph = new KnowledgeGraphMemory();
    await graph.add([
      { subject: 'Ada', relation: 'works_at', object: 'Acme', confidence: 0.9 },
      { subject: 'Acme', relation: 'located_in', object: 'London', confidence: 1 },
      { subject: 'Bob', relation: 'likes', object: 'tea', confidence: 1 },
    ]);
    assert.deepEqual(queryKeywords('Where does Ada work, and is it in the UK?'), ['ada', 'work']);
    assert.deepEqual((await graph.queryRelevant('Where does Ada work?')).map((t) => t.object), ['Acme']);
    assert.deepEqual((await graph.queryRelevant('Acme in London?')).map((t) => t.subject), ['Acme', 'Ada']);
    assert.deepEqual(await graph.queryRelevant('what is the'), []);
    assert.equal(await graph.contextBlock('Tell me about Bob'), 'Known Relationships:\n- Bob —likes→ tea');
    assert.equal(await graph.contextBlock('Ada'), 'Known Relationships:\n- Ada —works_at→ Acme (confidence 0.9)');
    assert.deepEqual((await graph.query({ relation: 'likes' })).map((t) => t.subject), ['Bob']);
  });

  test('minConfidence drops weak triples; extraction replies are parsed leniently, wrong shapes throw', async () => {
    const graph = new KnowledgeGraphMemory({ minConfidence: 0.5 });
    assert.equal(await graph.add([{ subject: 'a', relation: 'b', object: 'c', confidence: 0.4 }, { subject: 'd', relation: 'e', object: 'f', confidence: 0.5 }]), 1);
    assert.deepEqual(parseExtractedTriples({ triples: [{ subject: 'x', relation: 'y', object: 'z', confidence: 7 }, { subject: '', relation: 'y', object: 'z' }, 'junk'] }), [{ subject: 'x', relation: 'y', object: 'z', confidence: 1 }]);
    assert.throws(() => parseExtractedTriples({ items: [] }), SyntaxError);
    assert.throws(() => new KnowledgeGraphMemory({ minConfidence: 2 }), ConfigurationError);
    assert.throws(() => new KnowledgeGraphMemory({ maxInjected: 0 }), ConfigurationError);
  });

  test('on an Agent: extraction after each run, kg-extraction event and kg_extraction step, Known Relationships before a relevant run', async () => {
    const p = new ScriptedProvider({
      respond: (request) => {
        if (request.responseFormat?.name === 'triples') {
          return request.messages[0]!.content.includes('Acme') ? JSON.stringify({ triples: [{ subject: 'Ada', relation: 'works_at', object: 'Acme', confidence: 0.9 }, { subject: 'Ada', relation: 'guess', object: 'x', confidence: 0.1 }] }) : '{"triples": []}';
        }
        return 'Noted.';
      },
    });
    const events = eventLog();
    const store = new SQLiteTripleStore({ path: join(dir, 'kg.db'), namespace: 'helper' });
    const agent = new Agent({ provider: p, knowledgeGraph: { store, minConfidence: 0.3 }, observers: [events.observer], runtime: testRuntime() });
    const first = await agent.run('Ada works at Acme.');
    assert.deepEqual(events.of('kg-extraction').map((e) => e.triples), [1]);
    assert.deepEqual(first.trace.steps.filter((s) => s.type === 'kg_extraction').map((s) => s.metadata), [{ triples: 1 }]);
    assert.deepEqual(await store.query({ subject: 'ada' }), [{ subject: 'Ada', relation: 'works_at', object: 'Acme', confidence: 0.9 }]);
    await agent.run('Where does Ada work?');
    const runs = p.requests.filter((r) => r.responseFormat === undefined);
    assert.equal(runs[1]!.messages[0]!.content, 'Known Relationships:\n- Ada —works_at→ Acme (confidence 0.9)');
    await agent.run('Unrelated question about weather');
    assert.notEqual(p.requests.filter((r) => r.responseFormat === undefined)[2]!.messages[0]!.role, 'system', 'no relevant triple, no block');
    // A new agent on the same SQLite store knows the relationship.
    const later = new Agent({ provider: p, knowledgeGraph: { store: new SQLiteTripleStore({ path: join(dir, 'kg.db'), namespace: 'helper' }) }, runtime: testRuntime() });
    assert.equal((await later.knowledgeGraph!.queryRelevant('Ada')).length, 1);
  });

  test('a failed extraction is an error event; nothing stored, the answer stands', async () => {
    const p = new ScriptedProvider({ respond: (request) => (request.responseFormat ? '{"nope": 1}' : 'Fine.') });
    const events = eventLog();
    const agent = new Agent({ provider: p, knowledgeGraph: {}, observers: [events.observer], runtime: testRuntime() });
    const result = await agent.run('Ada works at Acme.');
    assert.equal(result.content, 'Fine.');
    assert.deepEqual(events.of('error').map((e) => [e.stage, /no "triples" list/.test(e.error.message)]), [['llm', true]]);
    assert.equal(await agent.knowledgeGraph!.store.count(), 0);
  });
});
