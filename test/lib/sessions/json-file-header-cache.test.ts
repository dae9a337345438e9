import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { SessionConflictError } from '../../../lib/core/errors/session-conflict-error.js';
import { JsonFileSessionStore } from '../../../lib/sessions/json-file-session-store.js';

test('JsonFileSessionStore: the revision a save checks follows a file another store object replaced (no stale header)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agentlib-json-header-'));
  try {
    const a = new JsonFileSessionStore({ directory: dir });
    const b = new JsonFileSessionStore({ directory: dir });
    await a.save('s', { messages: [{ role: 'user', content: 'one' }] });
    await b.save('s', { messages: [{ role: 'user', content: 'two' }] }, { expectedRevision: 1 });
    await assert.rejects(a.save('s', { messages: [{ role: 'user', content: 'stale' }] }, { expectedRevision: 1 }), SessionConflictError);
    const saved = await a.save('s', { messages: [{ role: 'user', content: 'three' }] }, { expectedRevision: 2 });
    assert.equal(saved.revision, 3);
    assert.equal((await b.load('s'))?.messages[0]?.content, 'three');
    await b.delete('s');
    assert.equal((await a.save('s', { messages: [] })).revision, 1, 'a deleted file starts again at revision 1');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('JsonFileSessionStore: a namespace folder removed between two saves is made again, and no temporary file is left', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agentlib-json-folder-'));
  try {
    const store = new JsonFileSessionStore({ directory: dir, namespace: 'bot' });
    await store.save('s', { messages: [{ role: 'user', content: 'one' }] });
    await rm(join(dir, 'bot'), { recursive: true });
    const saved = await store.save('s', { messages: [{ role: 'user', content: 'two' }] });
    assert.equal(saved.revision, 1, 'the removed session is gone: this save starts it again');
    assert.equal((await new JsonFileSessionStore({ directory: dir, namespace: 'bot' }).load('s'))?.messages[0]?.content, 'two');
    await store.save('s', { messages: [{ role: 'user', content: 'three' }] }, { expectedRevision: 1 });
    assert.deepEqual(await readdir(join(dir, 'bot')), ['s.json']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
