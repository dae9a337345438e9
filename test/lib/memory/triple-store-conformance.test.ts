import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { MemoryTripleStore } from '../../../lib/memory/knowledge-graph/memory-triple-store.js';
import { SQLiteTripleStore } from '../../../lib/memory/knowledge-graph/sqlite-triple-store.js';
import type { Triple } from '../../../lib/memory/knowledge-graph/triple.js';
import type { TripleStore } from '../../../lib/memory/knowledge-graph/triple-store.js';
import { closeAllStorage, InvalidStoreIdError } from '../../../lib/storage/index.js';
import { HOSTILE_IDS } from '../../support/hostile-ids.js';

/** One backend under test: stores opened on the same place share their data. */
interface Backend {
  name: string;
  place(): Promise<string>;
  open(place: string, namespace?: string): TripleStore;
}

let root: string;
let places = 0;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'agentlib-triples-'));
});
after(async () => {
  await closeAllStorage();
  await rm(root, { recursive: true, force: true });
});

const shared = new Map<string, MemoryTripleStore>();
const BACKENDS: Backend[] = [
  {
    name: 'memory',
    place: () => Promise.resolve(`mem-${++places}`),
    // The memory store is one object: "the same place" is the same store per namespace.
    open: (place, namespace) => {
      const key = `${place}/${namespace ?? ''}`;
      if (!shared.has(key)) shared.set(key, new MemoryTripleStore(namespace === undefined ? {} : { namespace }));
      return shared.get(key)!;
    },
  },
  {
    name: 'SQLite',
    place: () => Promise.resolve(join(root, `triples-${++places}.db`)),
    open: (place, namespace) => new SQLiteTripleStore({ path: place, ...(namespace === undefined ? {} : { namespace }) }),
  },
];

const t = (subject: string, relation: string, object: string, confidence = 1): Triple => ({ subject, relation, object, confidence });

for (const backend of BACKENDS) {
  describe(`TripleStore conformance: ${backend.name}`, () => {
    test('add counts new triples; a known triple (any case, extra spaces) keeps the higher confidence', async () => {
      const store = backend.open(await backend.place());
      assert.equal(await store.add([t('Ada', 'works_at', 'Acme', 0.6), t('Acme', 'located_in', 'London')]), 2);
      assert.equal(await store.add([t(' ada ', 'WORKS_AT', 'acme', 0.9), t('Ada', 'works_at', 'Acme', 0.1)]), 0);
      assert.equal(await store.count(), 2);
      assert.deepEqual(await store.query({ subject: 'ADA' }), [t('Ada', 'works_at', 'Acme', 0.9)], 'first spelling kept, higher confidence kept');
    });

    test('query by subject, relation, object or several; highest confidence first; limit', async () => {
      const store = backend.open(await backend.place());
      await store.add([t('Ada', 'works_at', 'Acme', 0.5), t('Ada', 'lives_in', 'London', 0.9), t('Bob', 'works_at', 'Acme', 0.7), t('Bob', 'likes', 'tea', 0.7)]);
      assert.deepEqual(await store.query({ subject: 'ada' }), [t('Ada', 'lives_in', 'London', 0.9), t('Ada', 'works_at', 'Acme', 0.5)]);
      assert.deepEqual(await store.query({ relation: 'works_at' }), [t('Bob', 'works_at', 'Acme', 0.7), t('Ada', 'works_at', 'Acme', 0.5)]);
      assert.deepEqual(await store.query({ object: 'ACME', subject: 'bob' }), [t('Bob', 'works_at', 'Acme', 0.7)]);
      assert.deepEqual(await store.query({}), [t('Ada', 'lives_in', 'London', 0.9), t('Bob', 'likes', 'tea', 0.7), t('Bob', 'works_at', 'Acme', 0.7), t('Ada', 'works_at', 'Acme', 0.5)]);
      assert.deepEqual((await store.query({ limit: 1 })).length, 1);
      assert.deepEqual(await store.query({ subject: 'nobody' }), []);
      await assert.rejects(async () => store.query({ limit: 0 }), ConfigurationError);
    });

    test('search: whole-word keyword matches, most keywords first, then confidence; no substring hits', async () => {
      const store = backend.open(await backend.place());
      await store.add([t('Ada', 'works_at', 'Acme Corp', 0.5), t('Ada', 'lives_in', 'London', 0.9), t('Acme Corp', 'located_in', 'London', 0.8), t('Adamant', 'is', 'metal', 1)]);
      assert.deepEqual(await store.search(['ada', 'acme']), [t('Ada', 'works_at', 'Acme Corp', 0.5), t('Ada', 'lives_in', 'London', 0.9), t('Acme Corp', 'located_in', 'London', 0.8)]);
      assert.deepEqual(await store.search(['london'], 1), [t('Ada', 'lives_in', 'London', 0.9)]);
      assert.deepEqual(await store.search(['located']), [t('Acme Corp', 'located_in', 'London', 0.8)], 'relations split into words at _');
      assert.deepEqual(await store.search(['%', '_', 'zzz']), [], 'LIKE wildcards are text');
      assert.deepEqual(await store.search([]), []);
    });

    test('delete by query; a delete without any field is refused; clear', async () => {
      const store = backend.open(await backend.place());
      await store.add([t('Ada', 'works_at', 'Acme'), t('Ada', 'lives_in', 'London'), t('Bob', 'works_at', 'Acme')]);
      assert.equal(await store.delete({ subject: 'ADA', relation: 'works_at' }), 1);
      assert.equal(await store.delete({ object: 'acme' }), 1);
      await assert.rejects(async () => store.delete({}), ConfigurationError);
      assert.deepEqual(await store.query(), [t('Ada', 'lives_in', 'London')]);
      await store.clear();
      assert.equal(await store.count(), 0);
    });

    test('hostile text is data: quotes, SQL, NUL, Unicode round-trip exactly', async () => {
      const store = backend.open(await backend.place());
      const nasty = [t("Robert'); DROP TABLE agentlib_triples;--", 'says', '"%_\\ *?'), t('a\u0000b', 'is', '日本 🙂 \u202e'), t('ｆｕｌｌ', 'has', 'x'.repeat(5000))];
      await store.add(nasty);
      const all = await store.query();
      assert.equal(all.length, 3);
      for (const triple of nasty) assert.deepEqual((await store.query({ subject: triple.subject }))[0], triple);
      assert.equal(await store.count(), 3);
    });

    test('invalid triples are refused before anything is written', async () => {
      const store = backend.open(await backend.place());
      await assert.rejects(async () => store.add([t('ok', 'is', 'fine'), t('', 'is', 'x')]), ConfigurationError);
      await assert.rejects(async () => store.add([t('a', 'b', 'c', 1.5)]), ConfigurationError);
      await assert.rejects(async () => store.add([t('a', 'b', 'c', Number.NaN)]), ConfigurationError);
      assert.equal(await store.count(), 0);
    });

    test('namespaces keep graphs apart; a store opened again on the same place sees the data', async () => {
      const place = await backend.place();
      await backend.open(place, 'agent-a').add([t('Ada', 'is', 'here')]);
      assert.equal(await backend.open(place, 'agent-b').count(), 0);
      assert.deepEqual(await backend.open(place, 'agent-a').query(), [t('Ada', 'is', 'here')]);
    });

    test('50 hostile namespaces refused with InvalidStoreIdError', async () => {
      const place = await backend.place();
      for (const id of HOSTILE_IDS) assert.throws(() => backend.open(place, id), InvalidStoreIdError, JSON.stringify(id));
    });
  });
}
