import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_SQLITE_FILE, parseStoreUrl, redactStoreUrl, StorageUrlError } from '../../../lib/storage/index.js';

const cwd = '/project';

describe('parseStoreUrl', () => {
  test('sqlite: bare is the project database, relative and absolute paths', () => {
    assert.deepEqual(parseStoreUrl('sqlite://', { cwd }), { scheme: 'sqlite', url: 'sqlite://', path: join(cwd, DEFAULT_SQLITE_FILE) });
    assert.equal(parseStoreUrl('sqlite:', { cwd }).path, join(cwd, DEFAULT_SQLITE_FILE));
    assert.equal(parseStoreUrl('sqlite://data/app.db', { cwd }).path, join(cwd, 'data/app.db'));
    assert.equal(parseStoreUrl('sqlite:///var/lib/app.db', { cwd }).path, '/var/lib/app.db');
    assert.equal(parseStoreUrl('sqlite://my%20file.db', { cwd }).path, join(cwd, 'my file.db'));
  });

  test('servers keep their URL; both spellings of postgres and redis', () => {
    assert.deepEqual(parseStoreUrl('postgresql://u:p@db:5432/app'), { scheme: 'postgres', url: 'postgresql://u:p@db:5432/app' });
    assert.equal(parseStoreUrl('postgres://localhost/app').scheme, 'postgres');
    assert.equal(parseStoreUrl('rediss://cache:6380/1').scheme, 'redis');
    assert.deepEqual(parseStoreUrl('memory://'), { scheme: 'memory', url: 'memory://' });
    assert.equal(parseStoreUrl('file://sessions', { cwd }).path, join(cwd, 'sessions'));
    assert.equal(parseStoreUrl('lancedb:///data/vectors').path, '/data/vectors');
  });

  test('an unknown or refused scheme names the accepted ones; the password never shows', () => {
    assert.throws(() => parseStoreUrl('mysql://root:hunter2@db/app', { what: 'session store' }), (error: unknown) => {
      assert.ok(StorageUrlError.isInstance(error));
      assert.match(error.message, /session store URL .* has no known scheme: use one of memory:\/\/, file:\/\//);
      assert.doesNotMatch(error.message, /hunter2/);
      return true;
    });
    assert.throws(() => parseStoreUrl('redis://h:1', { allowed: ['memory', 'sqlite', 'postgres'], what: 'checkpoint store' }), /a redis store cannot be used here; use one of memory:\/\/, sqlite:\/\/, postgres:\/\//);
    assert.throws(() => parseStoreUrl('file://'), /names no directory/);
    assert.throws(() => parseStoreUrl('memory://x'), /takes no path/);
    assert.throws(() => parseStoreUrl('redis://'), /not a valid redis URL/);
    assert.throws(() => parseStoreUrl('sqlite://a%00b'), /NUL/);
  });

  test('redactStoreUrl hides only the password', () => {
    assert.equal(redactStoreUrl('postgres://me:s3cret@db:5432/app'), 'postgres://me:***@db:5432/app');
    assert.equal(redactStoreUrl('redis://db:6379'), 'redis://db:6379');
  });
});
