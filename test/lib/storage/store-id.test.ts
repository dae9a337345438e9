import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { checkStoreId, InvalidStoreIdError, resolveInside, writeFileAtomic } from '../../../lib/storage/index.js';
import { HOSTILE_IDS } from '../../support/hostile-ids.js';


describe('checkStoreId', () => {
  test('accepts the REFERENCE.md §7 alphabet up to 128 characters', () => {
    for (const id of ['a', 'chat-2024.11_A', 'x'.repeat(128), '0', 'a.b', '-_-']) assert.equal(checkStoreId(id), id);
  });

  test(`refuses ${HOSTILE_IDS.length} hostile ids with a typed error naming what the id is`, () => {
    assert.ok(HOSTILE_IDS.length >= 50);
    for (const id of HOSTILE_IDS) {
      assert.throws(() => checkStoreId(id, 'session id'), (error: unknown) => InvalidStoreIdError.isInstance(error) && /^invalid session id /.test(error.message), JSON.stringify(id));
    }
    assert.throws(() => checkStoreId(42, 'thread id'), /must be a string/);
  });
});

describe('resolveInside and writeFileAtomic', () => {
  const base = mkdtempSync(join(tmpdir(), 'agentlib-store-id-'));
  after(() => rmSync(base, { recursive: true, force: true }));

  test('a name that leaves the directory is refused, whatever checkStoreId let through', () => {
    assert.equal(resolveInside(base, 'ok.json'), join(base, 'ok.json'));
    for (const name of ['../x', '/etc/passwd', 'a/../../x', '', '.']) assert.throws(() => resolveInside(base, name), InvalidStoreIdError);
  });

  test('writeFileAtomic leaves the new content and no temporary file', async () => {
    const path = resolveInside(base, 'session.json');
    await writeFileAtomic(path, 'one');
    await writeFileAtomic(path, 'two');
    assert.deepEqual(readdirSync(base), ['session.json']);
  });
});
