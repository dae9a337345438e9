import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { describeTable, ensureSampleDatabase, leadingKeyword, listTables, MAX_ROWS, runSql } from '../../../templates/data_analyst/tools.js';
import { toolContext } from '../tool-context.js';

let dir: string;
let database: string;
let fingerprint: string;

const hashFile = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentlib-sql-'));
  database = ensureSampleDatabase(dir);
  fingerprint = hashFile(database);
});

after(() => rmSync(dir, { recursive: true, force: true }));

const ctx = (extra: Record<string, unknown> = {}): ReturnType<typeof toolContext> => toolContext({ database, sqlTimeoutMs: 10_000, ...extra });

interface SqlResult {
  columns: string[];
  rows: unknown[][];
  row_count: number;
  truncated: boolean;
  note?: string;
}

async function sql(query: string, params?: (string | number | boolean | null)[], extra?: Record<string, unknown>): Promise<SqlResult> {
  const output = await runSql.invoke(params === undefined ? { sql: query } : { sql: query, params }, ctx(extra));
  return output.raw as SqlResult;
}

describe('ensureSampleDatabase', () => {
  test('builds the sample once into the given directory and reuses it', () => {
    assert.match(database, /sales-[0-9a-f]{12}\.db$/);
    assert.ok(database.startsWith(dir));
    assert.equal(ensureSampleDatabase(dir), database);
    assert.equal(hashFile(database), fingerprint);
  });
});

describe('list_tables / describe_table', () => {
  test('lists the four tables with row counts', async () => {
    const tables = (await listTables.invoke({}, ctx())).raw as { name: string; type: string; rows: number }[];
    assert.deepEqual(
      tables.map((t) => t.name),
      ['customers', 'order_items', 'orders', 'products'],
    );
    assert.ok(tables.every((t) => t.type === 'table' && t.rows > 0));
    assert.ok((tables.find((t) => t.name === 'order_items')?.rows ?? 0) > MAX_ROWS);
  });

  test('describes columns, foreign keys and sample rows (name matched case-insensitively)', async () => {
    const info = (await describeTable.invoke({ table: 'Orders' }, ctx())).raw as {
      name: string;
      columns: { name: string; primary_key: boolean }[];
      foreign_keys: { column: string; references_table: string }[];
      sample_rows: unknown[];
    };
    assert.equal(info.name, 'orders');
    assert.deepEqual(
      info.columns.map((c) => c.name),
      ['id', 'customer_id', 'order_date', 'status', 'channel', 'shipping_cost', 'discount_code'],
    );
    assert.ok(info.columns[0]?.primary_key);
    assert.deepEqual(info.foreign_keys.map((fk) => [fk.column, fk.references_table]), [['customer_id', 'customers']]);
    assert.equal(info.sample_rows.length, 3);
  });

  test('rejects unknown tables, including injection attempts, with the known names', async () => {
    await assert.rejects(describeTable.invoke({ table: 'orders; DROP TABLE orders' }, ctx()), /no table or view named .*known: customers, order_items, orders, products/);
  });
});

describe('run_sql', () => {
  test('runs an aggregate query', async () => {
    const result = await sql('SELECT category, count(*) AS n FROM products GROUP BY category ORDER BY n DESC, category');
    assert.deepEqual(result.columns, ['category', 'n']);
    assert.deepEqual(result.rows[0], ['Accessories', 6]);
    assert.equal(result.truncated, false);
  });

  test('binds parameters (booleans as 0/1)', async () => {
    const result = await sql('SELECT count(*) FROM customers WHERE country = ?', ['DE']);
    const direct = await sql("SELECT count(*) FROM customers WHERE country = 'DE'");
    assert.deepEqual(result.rows, direct.rows);
    const active = await sql('SELECT count(*) FROM products WHERE active = ?', [false]);
    assert.deepEqual(active.rows, [[2]]);
    const injection = await sql('SELECT count(*) FROM customers WHERE country = ?', ["DE' OR '1'='1"]);
    assert.deepEqual(injection.rows, [[0]]);
  });

  test('caps rows at 200 and reports truncation', async () => {
    const result = await sql('SELECT * FROM order_items ORDER BY id');
    assert.equal(result.rows.length, MAX_ROWS);
    assert.equal(result.row_count, MAX_ROWS);
    assert.equal(result.truncated, true);
    assert.match(result.note ?? '', /first 200 rows/);
  });

  test('refuses writes and connection changes', async () => {
    await assert.rejects(sql('DELETE FROM orders'), /refused: only read-only queries .*\(got DELETE\)/);
    await assert.rejects(sql("ATTACH DATABASE '/tmp/other.db' AS other"), /refused: .*\(got ATTACH\)/);
    await assert.rejects(sql('PRAGMA writable_schema = 1'), /refused: .*\(got PRAGMA\)/);
    await assert.rejects(sql('/* hide */ -- comment\n  UPDATE products SET unit_price = 0'), /\(got UPDATE\)/);
    await assert.rejects(sql('WITH doomed AS (SELECT id FROM orders) DELETE FROM orders WHERE id IN (SELECT id FROM doomed)'), /would modify the database/);
    await assert.rejects(sql('SELECT 1; DELETE FROM orders'), /more than one statement/);
    await assert.rejects(sql('SELECT * FROM no_such_table'), /no such table/);
    const count = await sql('SELECT count(*) FROM orders');
    assert.deepEqual(count.rows, [[320]]);
    assert.equal(hashFile(database), fingerprint, 'the database file is unchanged');
  });

  test('stops a runaway query at the time limit', async () => {
    const started = Date.now();
    await assert.rejects(sql('WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n', undefined, { sqlTimeoutMs: 300 }), /timed out after 300 ms/);
    assert.ok(Date.now() - started < 5_000);
  });

  test('stops when the run is cancelled', async () => {
    const controller = new AbortController();
    const pending = runSql.invoke({ sql: 'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n' }, toolContext({ database }, controller.signal));
    setTimeout(() => controller.abort(new Error('user cancelled')), 200);
    await assert.rejects(pending, /cancelled/);
  });

  test('uses AGENTLIB_SQLITE_PATH when the context names no database', async () => {
    const saved = process.env['AGENTLIB_SQLITE_PATH'];
    process.env['AGENTLIB_SQLITE_PATH'] = database;
    try {
      const output = await runSql.invoke({ sql: 'SELECT count(*) AS n FROM products' }, toolContext(undefined));
      assert.deepEqual((output.raw as SqlResult).rows, [[30]]);
    } finally {
      if (saved === undefined) delete process.env['AGENTLIB_SQLITE_PATH'];
      else process.env['AGENTLIB_SQLITE_PATH'] = saved;
    }
  });

  test('a missing database file is an error, not a new empty database', async () => {
    await assert.rejects(runSql.invoke({ sql: 'SELECT 1' }, toolContext({ database: join(dir, 'missing.db') })), /unable to open|does not exist|exist/i);
  });

  test('leadingKeyword skips whitespace and comments', () => {
    assert.equal(leadingKeyword('  -- note\n/* block */ select 1'), 'SELECT');
    assert.equal(leadingKeyword('/* unterminated'), '');
  });
});
