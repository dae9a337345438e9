import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { CancellationToken } from '../../../lib/core/cancellation-token.js';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { EntityMemory } from '../../../lib/memory/entities/entity-memory.js';
import { MemoryEntityStore } from '../../../lib/memory/entities/memory-entity-store.js';
import { SQLiteEntityStore } from '../../../lib/memory/entities/sqlite-entity-store.js';
import type { ProviderRequest } from '../../../lib/providers/spec.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { closeAllStorage, InvalidStoreIdError } from '../../../lib/storage/index.js';
import { eventLog, testRuntime } from '../../support/agent-harness.js';
import { HOSTILE_IDS } from '../../support/hostile-ids.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentlib-entities-'));
});
after(async () => {
  await closeAllStorage();
  await rm(dir, { recursive: true, force: true });
});

/** A provider that answers runs with `answer` and extraction calls with `entities` (JSON). */
function provider(entities: (request: ProviderRequest) => unknown, answer = 'Noted.'): ScriptedProvider {
  return new ScriptedProvider({
    respond: (request) => (request.responseFormat?.name === 'entities' ? JSON.stringify(entities(request)) : answer),
    usage: { promptTokens: 10, completionTokens: 5 },
  });
}

describe('EntityMemory on its own', () => {
  test('entities are deduplicated by name case-insensitively; attributes merge, mentions count, timestamps move', async () => {
    let clock = 1000;
    const memory = new EntityMemory({ now: () => clock });
    await memory.merge([{ name: 'Ada Lovelace', type: 'person', attributes: { role: 'CTO', city: 'London' } }]);
    clock = 2000;
    const [merged] = await memory.merge([{ name: '  ada   LOVELACE ', type: 'custom', attributes: { city: 'Paris', team: 7 } }]);
    assert.deepEqual(merged, { name: 'Ada Lovelace', type: 'person', attributes: { role: 'CTO', city: 'Paris', team: '7' }, mentionCount: 2, firstSeen: 1000, lastSeen: 2000 });
    assert.equal(memory.size, 1);
    assert.deepEqual(memory.get('ADA LOVELACE'), merged);
    const [twice] = await memory.merge([{ name: 'Acme', type: 'organization' }, { name: 'acme', type: 'organization', attributes: { size: 'big' } }]);
    assert.equal(twice!.mentionCount, 1, 'listed twice in one extraction = one mention');
    assert.equal(memory.get('acme')!.attributes.size, 'big');
    assert.equal(memory.get('acme')!.type, 'organization');
    const [odd] = await memory.merge([{ name: 'Zeta', type: 'spaceship' }]);
    assert.equal(odd!.type, 'custom', 'an unknown type is custom');
  });

  test('LRU prune at maxEntities: the least recently mentioned entity goes first', async () => {
    let clock = 0;
    const memory = new EntityMemory({ maxEntities: 3, now: () => ++clock });
    await memory.merge([{ name: 'A' }, { name: 'B' }, { name: 'C' }]);
    await memory.merge([{ name: 'a' }]); // A is now the most recent
    await memory.merge([{ name: 'D' }]);
    assert.deepEqual(memory.entities.map((e) => e.name), ['D', 'A', 'C']);
    await memory.merge([{ name: 'E' }, { name: 'F' }]);
    assert.deepEqual(memory.entities.map((e) => e.name), ['F', 'E', 'D']);
  });

  test('the Known Entities block lists the most recent maxInjected entities with their attributes', async () => {
    const memory = new EntityMemory({ maxInjected: 2 });
    assert.equal(memory.contextBlock(), undefined);
    await memory.merge([{ name: 'Old' }]);
    await memory.merge([{ name: 'Ada', type: 'person', attributes: { role: 'CTO' } }]);
    await memory.merge([{ name: 'Acme', type: 'organization' }]);
    assert.equal(memory.contextBlock(), 'Known Entities:\n- Acme (organization)\n- Ada (person): role: CTO');
  });

  test('toJSON / fromJSON round trip; a malformed snapshot is refused naming the problem', async () => {
    const memory = new EntityMemory({ now: () => 5 });
    await memory.merge([{ name: 'Ada', type: 'person', attributes: { role: 'CTO' } }, { name: 'Acme', type: 'organization' }]);
    const copy = EntityMemory.fromJSON(JSON.parse(JSON.stringify(memory.toJSON())));
    assert.deepEqual(copy.entities, memory.entities);
    assert.throws(() => EntityMemory.fromJSON({ kind: 'entity-memory', version: 2, entities: [] }), /version 2 is not supported/);
    assert.throws(() => EntityMemory.fromJSON({ kind: 'entity-memory', version: 1, entities: [{ name: 'x', type: 'alien', attributes: {}, mentionCount: 1, firstSeen: 0, lastSeen: 0 }] }), (e: unknown) => ConfigurationError.isInstance(e) && /entities\[0\]: entity "x": type must be one of/.test(e.message));
  });

  test('bad limits are refused', () => {
    assert.throws(() => new EntityMemory({ maxEntities: 0 }), ConfigurationError);
    assert.throws(() => new EntityMemory({ maxInjected: 1.5 }), ConfigurationError);
  });
});

describe('EntityMemory stores', () => {
  for (const backend of [
    { name: 'memory', open: (ns?: string) => new MemoryEntityStore(ns === undefined ? {} : { namespace: ns }) },
    { name: 'SQLite', open: (ns?: string) => new SQLiteEntityStore({ path: join(dir, 'entities.db'), ...(ns === undefined ? {} : { namespace: ns }) }) },
  ]) {
    test(`${backend.name}: put / all / delete / clear by case-insensitive name; namespaces apart; hostile namespaces refused`, async () => {
      const store = backend.open(`ns-${backend.name}`);
      const other = backend.open(`other-${backend.name}`);
      const ada = { name: 'Ada', type: 'person' as const, attributes: { 'quote"\'; DROP TABLE x; --': 'ok\u0000\n' }, mentionCount: 2, firstSeen: 1, lastSeen: 3 };
      await store.put([ada, { name: 'Acme', type: 'organization', attributes: {}, mentionCount: 1, firstSeen: 2, lastSeen: 2 }]);
      await store.put([{ ...ada, mentionCount: 3 }]);
      assert.deepEqual((await store.all()).sort((a, b) => a.name.localeCompare(b.name)), [{ name: 'Acme', type: 'organization', attributes: {}, mentionCount: 1, firstSeen: 2, lastSeen: 2 }, { ...ada, mentionCount: 3 }]);
      assert.deepEqual(await other.all(), []);
      await store.delete(['ACME']);
      assert.deepEqual((await store.all()).map((e) => e.name), ['Ada']);
      await store.clear();
      assert.deepEqual(await store.all(), []);
      for (const id of HOSTILE_IDS) assert.throws(() => backend.open(id), InvalidStoreIdError, JSON.stringify(id));
      await store.close();
      await other.close();
    });
  }

  test('an EntityMemory on SQLite sees the entities of an earlier one (pruned ones deleted)', async () => {
    const path = join(dir, 'persist.db');
    const first = new EntityMemory({ maxEntities: 2, store: new SQLiteEntityStore({ path, namespace: 'agent1' }) });
    await first.merge([{ name: 'A' }, { name: 'B' }]);
    await first.merge([{ name: 'C', attributes: { x: '1' } }]);
    const second = new EntityMemory({ store: new SQLiteEntityStore({ path, namespace: 'agent1' }) });
    await second.ready();
    assert.deepEqual(second.entities.map((e) => e.name), ['C', 'B']);
    assert.equal(second.get('c')!.attributes.x, '1');
  });
});

describe('EntityMemory on an Agent', () => {
  test('one structured extraction per run; entity-extraction event and step; Known Entities before the next run; usage counted', async () => {
    const p = provider((request) => (request.messages[0]!.content.includes('Ada') ? { entities: [{ name: 'Ada', type: 'person', attributes: { role: 'CTO' } }] } : { entities: [] }));
    const events = eventLog();
    const agent = new Agent({ provider: p, entityMemory: {}, observers: [events.observer], runtime: testRuntime() });
    const first = await agent.run('Ada is our CTO.');
    const extraction = p.requests.filter((r) => r.responseFormat !== undefined);
    assert.equal(extraction.length, 1);
    assert.equal(extraction[0]!.responseFormat!.type, 'json_schema');
    assert.match(extraction[0]!.messages[0]!.content, /user: Ada is our CTO\.\nassistant: Noted\./);
    assert.deepEqual(events.of('entity-extraction').map((e) => [e.entities, e.names]), [[1, ['Ada']]]);
    assert.deepEqual(first.trace.steps.filter((s) => s.type === 'entity_extraction').map((s) => s.metadata), [{ entities: 1 }]);
    assert.equal(first.usage.llmCalls, 2, 'the extraction call counts in the run usage');
    assert.equal(agent.entityMemory!.get('ada')!.attributes.role, 'CTO');
    await agent.run('Who is the CTO?');
    const runRequest = p.requests.filter((r) => r.responseFormat === undefined)[1]!;
    assert.equal(runRequest.messages[0]!.role, 'system');
    assert.equal(runRequest.messages[0]!.content, 'Known Entities:\n- Ada (person): role: CTO');
    assert.ok(!agent.history.some((m) => m.content.includes('Known Entities')), 'the block is never stored in the conversation');
  });

  test('a reply that is not JSON: error event (stage llm), the answer stands, nothing merged', async () => {
    const p = new ScriptedProvider({ respond: (request) => (request.responseFormat ? 'not json' : 'Fine.') });
    const events = eventLog();
    const agent = new Agent({ provider: p, entityMemory: new EntityMemory(), observers: [events.observer], runtime: testRuntime() });
    const result = await agent.run('Ada is here.');
    assert.equal(result.content, 'Fine.');
    assert.equal(result.status, 'completed');
    assert.deepEqual(events.of('error').map((e) => e.stage), ['llm']);
    assert.equal(events.of('entity-extraction').length, 0);
    assert.equal(agent.entityMemory!.size, 0);
  });

  test('a cancelled run that has content is still read; ask() is left alone', async () => {
    const token = new CancellationToken();
    let calls = 0;
    const p = new ScriptedProvider({
      respond: (request) => {
        if (request.responseFormat) return JSON.stringify({ entities: [{ name: 'Bob', type: 'person', attributes: {} }] });
        calls++;
        if (calls === 1) token.set();
        return { toolCalls: [{ toolName: 'nothing', parameters: {} }] };
      },
    });
    const agent = new Agent({ provider: p, entityMemory: {}, cancellationToken: token, runtime: testRuntime() });
    const result = await agent.run('Bob called.');
    assert.equal(result.status, 'cancelled');
    assert.deepEqual(agent.entityMemory!.entities.map((e) => e.name), ['Bob']);
    const before = p.requests.length;
    const q = new Agent({ provider: new ScriptedProvider({ replies: ['x'] }), entityMemory: {}, runtime: testRuntime() });
    await q.ask('Carol?');
    assert.equal(q.entityMemory!.size, 0);
    assert.equal(p.requests.length, before);
  });

  test('the memory\'s own extractor (provider and model) is used when given; a non-options value is refused', async () => {
    const extractor = provider(() => ({ entities: [{ name: 'Ada', type: 'person', attributes: {} }] }));
    const main = new ScriptedProvider({ replies: ['ok'] });
    const agent = new Agent({ provider: main, entityMemory: { extractor: { provider: extractor, model: 'small', maxTokens: 99 } }, runtime: testRuntime() });
    await agent.run('Ada');
    assert.equal(main.requests.length, 1);
    assert.equal(extractor.requests[0]!.model, 'small');
    assert.equal(extractor.requests[0]!.maxTokens, 99);
    assert.throws(() => new Agent({ provider: main, entityMemory: true as never }), /AgentConfig.entityMemory must be EntityMemory \(an instance\) or its options object/);
  });
});
