import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { buildAgentConfig } from '../../../lib/config/load-agent.js';
import { parseAgentConfig } from '../../../lib/config/parse-agent-config.js';
import { MemoryEntityStore } from '../../../lib/memory/entities/memory-entity-store.js';
import { SQLiteEntityStore } from '../../../lib/memory/entities/sqlite-entity-store.js';
import { FileKnowledgeStore } from '../../../lib/memory/knowledge/file-knowledge-store.js';
import { SQLiteKnowledgeStore } from '../../../lib/memory/knowledge/sqlite-knowledge-store.js';
import { MemoryTripleStore } from '../../../lib/memory/knowledge-graph/memory-triple-store.js';
import { SQLiteTripleStore } from '../../../lib/memory/knowledge-graph/sqlite-triple-store.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import type { Provider } from '../../../lib/providers/spec.js';
import { closeAllStorage } from '../../../lib/storage/index.js';
import { testRuntime } from '../../support/agent-harness.js';
import { brief, issuesOf, tempProject } from './project.js';

let project: Awaited<ReturnType<typeof tempProject>>;
before(async () => {
  project = await tempProject({});
});
after(async () => {
  await closeAllStorage();
  await project.cleanup();
});

const parse = (text: string) => parseAgentConfig(text, { env: {} });

describe('agent YAML: entity_memory, knowledge_graph, knowledge_memory', () => {
  test('`true` means the defaults: SQLite entities and triples, MEMORY.md files, namespaced by the agent name', async () => {
    const config = await buildAgentConfig(parse('name: helper bot\nprovider: openai\nentity_memory: true\nknowledge_graph: true\nknowledge_memory: true\n'), {
      createProvider: () => Promise.resolve(new ScriptedProvider({ replies: ['x'] })),
    });
    assert.ok(config.entityMemory !== undefined && !('then' in config.entityMemory));
    const agent = new Agent({ ...config, runtime: testRuntime() });
    assert.ok(agent.entityMemory!.store instanceof SQLiteEntityStore);
    assert.equal(agent.entityMemory!.store.namespace, 'helper-bot');
    assert.ok(agent.knowledgeGraph!.store instanceof SQLiteTripleStore);
    assert.ok(agent.knowledgeMemory!.store instanceof FileKnowledgeStore);
    assert.equal((agent.knowledgeMemory!.store).directory, '.agentlib/memory');
    assert.equal(agent.knowledgeMemory!.maxEntries, 50);
  });

  test('every setting is honoured; the extractor keys make the extraction model; two agents from one config share the stores', async () => {
    const main = new ScriptedProvider({ name: 'main', replies: ['Noted.'], loop: true });
    const extractor = new ScriptedProvider({
      name: 'extractor',
      respond: (request) => (request.responseFormat?.name === 'entities' ? '{"entities":[{"name":"Ada","type":"person","attributes":{}}]}' : '{"triples":[{"subject":"Ada","relation":"works_at","object":"Acme","confidence":0.2}]}'),
    });
    const created: unknown[] = [];
    const yaml = [
      'name: bot',
      'provider: openai',
      'entity_memory:',
      '  store: memory',
      '  namespace: people',
      '  max_entities: 7',
      '  max_injected: 3',
      '  extractor_provider: { type: anthropic }',
      '  extractor_model: small',
      '  extractor_max_tokens: 123',
      'knowledge_graph:',
      '  store: memory',
      '  max_injected: 4',
      '  min_confidence: 0.5',
      '  extractor_model: tiny',
      'knowledge_memory:',
      '  store: sqlite',
      `  path: ${join(project.dir, 'k.db')}`,
      '  max_entries: 9',
      '  max_entry_chars: 99',
      '  recent_days: 1',
      '  max_recent_lines: 5',
      '',
    ].join('\n');
    const config = await buildAgentConfig(parse(yaml), {
      createProvider: (spec): Promise<Provider> => {
        created.push(spec);
        return Promise.resolve(created.length === 1 ? main : extractor);
      },
    });
    const agent = new Agent({ ...config, runtime: testRuntime() });
    const entities = agent.entityMemory!;
    assert.ok(entities.store instanceof MemoryEntityStore);
    assert.deepEqual([entities.store.namespace, entities.maxEntities, entities.maxInjected, entities.extractor?.model, entities.extractor?.maxTokens], ['people', 7, 3, 'small', 123]);
    assert.deepEqual(created[1], { type: 'anthropic' });
    const graph = agent.knowledgeGraph!;
    assert.ok(graph.store instanceof MemoryTripleStore);
    assert.deepEqual([graph.maxInjected, graph.minConfidence, graph.extractor?.model, graph.extractor?.provider], [4, 0.5, 'tiny', main], 'extractor_model alone: the agent provider with that model');
    const knowledge = agent.knowledgeMemory!;
    assert.ok(knowledge.store instanceof SQLiteKnowledgeStore);
    assert.deepEqual([knowledge.maxEntries, knowledge.maxEntryChars, knowledge.recentDays, knowledge.maxRecentLines], [9, 99, 1, 5]);
    await agent.run('Ada works at Acme');
    assert.equal(extractor.requests[0]!.model, 'small');
    assert.equal(main.requests.filter((r) => r.model === 'tiny').length, 1, 'the graph extraction went to the agent provider with model tiny');
    assert.equal(await graph.store.count(), 0, 'min_confidence 0.5 dropped the 0.2 triple');
    const second = new Agent({ ...config, runtime: testRuntime() });
    await second.entityMemory!.ready();
    assert.deepEqual(second.entityMemory!.entities.map((e) => e.name), ['Ada'], 'a second agent from the config reads the same store');
    assert.notEqual(second.entityMemory, agent.entityMemory);
  });

  test('a file store writes MEMORY.md under the configured path', async () => {
    const dir = join(project.dir, 'mem');
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'remember', parameters: { content: 'Prefers tea' } }] }, 'ok'] });
    const config = await buildAgentConfig(parse(`name: bot\nprovider: openai\nknowledge_memory:\n  path: ${dir}\n`), { createProvider: () => Promise.resolve(provider) });
    await new Agent({ ...config, runtime: testRuntime() }).run('I prefer tea');
    assert.match(await readFile(join(dir, 'bot', 'MEMORY.md'), 'utf8'), /- Prefers tea <!-- agentlib /);
  });

  test('bad values: every problem at its file:line, with did-you-mean', () => {
    const yaml = [
      'provider: openai', // 1
      'entity_memory: false', // 2
      'knowledge_graph:', // 3
      '  store: redis', // 4
      '  min_confidence: 2', // 5
      '  namespace: ../x', // 6
      'knowledge_memory:', // 7
      '  max_entrie: 10', // 8
      '  recent_days: -1', // 9
      '  store: memory', // 10
      '  path: x', // 11
      '',
    ].join('\n');
    assert.deepEqual(brief(issuesOf(() => parse(yaml))).map((line) => line.replace(/ \(.*$/, '')), [
      '2:16 "entity_memory: false" is the default; remove the key',
      '4:10 "knowledge_graph.store" must be one of memory, sqlite; got "redis"',
      '5:19 "knowledge_graph.min_confidence" must be a number between 0 and 1; got number 2',
      '6:14 "knowledge_graph.namespace" must be 1–128 characters of A-Z a-z 0-9 _ . -',
      '8:3 unknown key "max_entrie" under "knowledge_memory" → max_entries',
      '9:16 "knowledge_memory.recent_days" must be an integer ≥ 0; got number -1',
    ]);
    assert.deepEqual(brief(issuesOf(() => parse('provider: openai\nknowledge_memory:\n  store: memory\n  path: x\n'))), ['4:3 "knowledge_memory.path" does not apply to store: memory (it would be ignored)']);
    assert.deepEqual(brief(issuesOf(() => parse('provider: openai\nentity_memory: 3\n'))).length, 1);
  });
});
