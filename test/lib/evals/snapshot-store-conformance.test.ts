import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { openSnapshotStore } from '../../../lib/evals/snapshot/open-snapshot-store.js';
import { snapshotKey, SnapshotStore, type Snapshot } from '../../../lib/evals/snapshot/snapshot-store.js';
import { CorruptRecordError, InvalidStoreIdError, SchemaVersionError, StorageUrlError } from '../../../lib/storage/errors/index.js';
import { checkStoreId } from '../../../lib/storage/store-id.js';
import { HOSTILE_IDS } from '../../support/hostile-ids.js';
import { BACKENDS, cleanupBackends, filesUnderRoot } from './document-backends.js';

const snap = (caseId: string, value: string): Snapshot => ({ suite: 'support', caseId, subject: 'output', value, savedAt: '2026-11-26T00:00:00.000Z' });

after(cleanupBackends);

describe('snapshotKey', () => {
  test('is a valid store id for any case name, stable, and distinct for names that slug alike', () => {
    const names = ['Refund flow', 'refund  flow!', '../../etc/passwd', '日本語のケース', 'x'.repeat(500), '', 'a\0b'];
    const keys = names.map((n) => snapshotKey('Customer Support', n));
    for (const key of keys) assert.equal(checkStoreId(key, 'snapshot key'), key);
    assert.equal(new Set(keys).size, names.length);
    assert.equal(snapshotKey('Customer Support', 'Refund flow'), snapshotKey('Customer Support', 'Refund flow'));
    assert.match(snapshotKey('Customer Support', 'Refund flow'), /^customer-support\.refund-flow-[0-9a-f]{8}$/);
    assert.match(snapshotKey('s', 'Refund flow', 'tool-calls'), /\.tool-calls$/);
  });
});

for (const backend of BACKENDS) {
  describe(`SnapshotStore conformance: ${backend.name}`, backend.options, () => {
    test('put, get, replace, keys by prefix, delete', async () => {
      const store = new SnapshotStore(await backend.open(await backend.place(), 'snapshot'));
      try {
        const key = snapshotKey('support', 'refund');
        assert.equal(await store.get(key), undefined);
        await store.put(key, snap('refund', 'Line one\nünïcødé 😀 "quoted" \\ back'));
        assert.deepEqual(await store.get(key), snap('refund', 'Line one\nünïcødé 😀 "quoted" \\ back'));
        await store.put(key, snap('refund', 'changed'));
        assert.equal((await store.get(key))?.value, 'changed');
        await store.put(snapshotKey('other', 'x'), snap('x', 'y'));
        assert.deepEqual(await store.keys('support.'), [key]);
        assert.equal((await store.keys()).length, 2);
        assert.equal(await store.delete(key), true);
        assert.equal(await store.delete(key), false);
        assert.deepEqual(await store.keys('support.'), []);
      } finally {
        await store.close();
      }
    });

    test('every hostile key is refused with InvalidStoreIdError and nothing is written', async () => {
      const store = new SnapshotStore(await backend.open(await backend.place(), 'snapshot'));
      const before = await filesUnderRoot();
      try {
        for (const id of HOSTILE_IDS) {
          await assert.rejects(store.put(id, snap('x', 'y')), InvalidStoreIdError, `put ${JSON.stringify(id)}`);
          await assert.rejects(store.get(id), InvalidStoreIdError, `get ${JSON.stringify(id)}`);
          await assert.rejects(store.delete(id), InvalidStoreIdError, `delete ${JSON.stringify(id)}`);
        }
        assert.deepEqual(await store.keys(), []);
        assert.deepEqual(await filesUnderRoot(), before);
      } finally {
        await store.close();
      }
    });

    test('corrupt and newer records are typed errors', async () => {
      const raw = await backend.open(await backend.place(), 'snapshot');
      const store = new SnapshotStore(raw);
      try {
        await raw.put('s.bad', 'not json');
        await raw.put('s.future', JSON.stringify({ kind: 'eval-snapshot', version: 2, data: {} }));
        await assert.rejects(store.get('s.bad'), (e: unknown) => CorruptRecordError.isInstance(e) && /snapshot "s\.bad"/.test((e as Error).message));
        await assert.rejects(store.get('s.future'), SchemaVersionError);
      } finally {
        await store.close();
      }
    });

    if (backend.persistent) {
      test('a snapshot written by one store is read by the next one on the same place', async () => {
        const place = await backend.place();
        const first = new SnapshotStore(await backend.open(place, 'snapshot'));
        await first.put('s.k', snap('k', 'kept'));
        await first.close();
        const second = new SnapshotStore(await backend.open(place, 'snapshot'));
        try {
          assert.equal((await second.get('s.k'))?.value, 'kept');
        } finally {
          await second.close();
        }
      });
    }
  });
}

describe('openSnapshotStore', () => {
  test('refuses other schemes with the allowed list', async () => {
    await assert.rejects(openSnapshotStore('lancedb://x'), (e: unknown) => StorageUrlError.isInstance(e) && /eval snapshot store/.test((e as Error).message));
  });
});
