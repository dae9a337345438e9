import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { acquireSqlite, closeAllStorage, migrateSqlite, SchemaVersionError } from '../../../lib/storage/index.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlib-sqlite-pool-'));
after(async () => {
  await closeAllStorage();
  rmSync(dir, { recursive: true, force: true });
});

describe('acquireSqlite', () => {
  test('one connection per file, in WAL mode with a busy timeout; the last release closes it', () => {
    const file = join(dir, 'nested', 'agentlib.db');
    const a = acquireSqlite(file);
    const b = acquireSqlite(join(dir, 'nested', '..', 'nested', 'agentlib.db'));
    assert.equal(a.db, b.db, 'the same connection for the same file');
    assert.equal(a.db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(a.db.pragma('busy_timeout', { simple: true }), 5000);
    a.release();
    a.release(); // a second release of the same handle is a no-op
    assert.ok(b.db.open, 'still open while b holds it');
    b.release();
    assert.equal(b.db.open, false);
    const c = acquireSqlite(file);
    assert.notEqual(c.db, a.db, 'a new connection after the last release');
    c.release();
  });

  test(':memory: is private to each acquire', () => {
    const a = acquireSqlite(':memory:');
    const b = acquireSqlite(':memory:');
    assert.notEqual(a.db, b.db);
    a.release();
    b.release();
  });

  test('closeAllStorage closes what is still held', async () => {
    const handle = acquireSqlite(join(dir, 'held.db'));
    await closeAllStorage();
    assert.equal(handle.db.open, false);
  });
});

describe('migrateSqlite', () => {
  const migrations = ['CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)', 'ALTER TABLE notes ADD COLUMN tag TEXT'];

  test('applies the missing migrations once and records the version per subsystem', () => {
    const handle = acquireSqlite(join(dir, 'migrate.db'));
    try {
      assert.equal(migrateSqlite(handle.db, 'notes', migrations.slice(0, 1)), 1);
      handle.db.prepare('INSERT INTO notes (body) VALUES (?)').run('kept');
      assert.equal(migrateSqlite(handle.db, 'notes', migrations), 2);
      assert.equal(migrateSqlite(handle.db, 'notes', migrations), 2);
      assert.deepEqual(handle.db.prepare('SELECT body, tag FROM notes').all(), [{ body: 'kept', tag: null }]);
      assert.equal(migrateSqlite(handle.db, 'other', []), 0);
    } finally {
      handle.release();
    }
  });

  test('a database newer than the code is a SchemaVersionError', () => {
    const file = join(dir, 'newer.db');
    const handle = acquireSqlite(file);
    migrateSqlite(handle.db, 'notes', migrations);
    handle.release();
    const again = acquireSqlite(file);
    try {
      assert.throws(() => migrateSqlite(again.db, 'notes', migrations.slice(0, 1), file), (error: unknown) => SchemaVersionError.isInstance(error) && error.found === 2 && error.supported === 1);
    } finally {
      again.release();
    }
  });

  test('four processes migrating and writing one file at once: one migration, every row', async () => {
    const file = join(dir, 'procs.db');
    const storage = fileURLToPath(new URL('../../../lib/storage/index.ts', import.meta.url));
    const script = `
      const { acquireSqlite, migrateSqlite } = await import(${JSON.stringify(storage)});
      const h = acquireSqlite(${JSON.stringify(file)});
      migrateSqlite(h.db, 'log', ['CREATE TABLE log (writer TEXT, n INTEGER)', 'CREATE TABLE log_migrations (at INTEGER); INSERT INTO log_migrations VALUES (1)']);
      const insert = h.db.prepare('INSERT INTO log VALUES (?, ?)');
      for (let n = 0; n < 200; n += 1) h.db.transaction(() => insert.run(process.argv[1], n)).immediate();
      h.release();`;
    await Promise.all(
      ['w0', 'w1', 'w2', 'w3'].map(
        (writer) =>
          new Promise<void>((resolve, reject) => {
            const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, writer], { stdio: ['ignore', 'ignore', 'pipe'] });
            let stderr = '';
            child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
            child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${writer} exited ${code}: ${stderr}`))));
          }),
      ),
    );
    const handle = acquireSqlite(file);
    try {
      assert.deepEqual(handle.db.prepare('SELECT COUNT(*) AS n FROM log_migrations').get(), { n: 1 });
      const rows = handle.db.prepare('SELECT writer, COUNT(*) AS n FROM log GROUP BY writer ORDER BY writer').all();
      assert.deepEqual(rows, ['w0', 'w1', 'w2', 'w3'].map((writer) => ({ writer, n: 200 })));
    } finally {
      handle.release();
    }
  });
});
