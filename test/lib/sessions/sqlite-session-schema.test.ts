import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { encodeSession } from '../../../lib/sessions/session-record.js';
import { SESSION_MIGRATIONS, SQLiteSessionStore } from '../../../lib/sessions/sqlite-session-store.js';
import type { SessionRecord } from '../../../lib/sessions/types.js';
import { acquireSqlite, closeAllStorage, migrateSqlite } from '../../../lib/storage/index.js';

let dir: string | undefined;
after(async () => {
  await closeAllStorage();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

test('a sessions table of schema version 1 (WITHOUT ROWID) is moved to version 2 with every session kept, and saves go on from it', async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentlib-sessions-schema-'));
  const path = join(dir, 'agentlib.db');
  const old = acquireSqlite(path);
  migrateSqlite(old.db, 'sessions', SESSION_MIGRATIONS.slice(0, 1));
  const rows: SessionRecord[] = [
    { id: 's1', messages: [{ role: 'user', content: 'kept' }], summary: 'sum', metadata: { k: 1 }, createdAt: 1_000, updatedAt: 2_000, revision: 7 },
    { id: 's2', messages: [], summary: '', metadata: {}, createdAt: 3_000, updatedAt: 3_000, revision: 1, expiresAt: 9_000_000_000_000 },
  ];
  const insert = old.db.prepare('INSERT INTO agentlib_sessions (namespace, id, revision, created_at, updated_at, expires_at, data) VALUES (?, ?, ?, ?, ?, ?, ?)');
  for (const r of rows) insert.run('default', r.id, r.revision, r.createdAt, r.updatedAt, r.expiresAt ?? null, encodeSession(r));
  insert.run('other-agent', 's1', 1, 5, 5, null, encodeSession({ ...rows[0]!, revision: 1 }));
  old.release();

  const store = new SQLiteSessionStore({ path });
  try {
    assert.deepEqual(await store.load('s1'), rows[0]);
    assert.deepEqual(await store.load('s2'), rows[1]);
    assert.deepEqual((await store.list()).map((s) => s.id).sort(), ['s1', 's2']);
    const saved = await store.save('s1', { messages: [{ role: 'user', content: 'next' }] }, { expectedRevision: 7 });
    assert.deepEqual([saved.revision, saved.createdAt], [8, 1_000]);
    const other = new SQLiteSessionStore({ path, namespace: 'other-agent' });
    assert.equal((await other.load('s1'))?.revision, 1);
    await other.close();

    const db = acquireSqlite(path);
    try {
      const table = db.db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'agentlib_sessions'").get() as { sql: string };
      assert.doesNotMatch(table.sql, /WITHOUT ROWID/i);
      assert.deepEqual(db.db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'agentlib_sessions%' ORDER BY name").all(), [{ name: 'agentlib_sessions' }]);
      assert.deepEqual(db.db.prepare("SELECT version FROM agentlib_schema WHERE subsystem = 'sessions'").get(), { version: 2 });
    } finally {
      db.release();
    }
  } finally {
    await store.close();
  }
});
