import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkSqlite } from '../../../commands/doctor/sqlite.js';

describe('doctor: sqlite', () => {
  test('the native module loads and reports its SQLite version', async () => {
    const result = await checkSqlite();
    assert.equal(result.status, 'ok', result.detail);
    assert.match(result.detail, /^native module loads; SQLite \d+\.\d+\.\d+$/);
    assert.equal(result.required, false);
  });

  test('a module that does not load: a warning with the rebuild hint (a failure when the agent needs it)', async () => {
    const load = () => Promise.reject(new Error('The module was compiled against a different Node.js version\nusing NODE_MODULE_VERSION 115'));
    const optional = await checkSqlite({ load });
    assert.equal(optional.status, 'warn');
    assert.equal(optional.detail, 'cannot load better-sqlite3: The module was compiled against a different Node.js version');
    assert.equal(optional.hint, 'rebuild the native module for this Node.js: npm rebuild better-sqlite3');
    const required = await checkSqlite({ load, required: true });
    assert.equal(required.status, 'fail');
  });
});
