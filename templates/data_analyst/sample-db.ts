import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqlite } from 'agentlib/storage';

/** The SQL script (schema + rows) the sample database is built from. */
export const SAMPLE_SQL_PATH = fileURLToPath(new URL('./fixtures/sales.sql', import.meta.url));

/** Where the sample database is cached when no directory is given. */
export const DEFAULT_SAMPLE_DIR = join(tmpdir(), 'agentlib-sample');

/**
 * Builds the sample sales database (customers, products, orders, order_items of a fictional
 * outdoor-gear shop) from fixtures/sales.sql into `dir` and returns its path. The file name carries
 * a hash of the script, so an edited script is rebuilt and an unchanged one is reused; the build
 * writes a temporary file and renames it, so concurrent callers never see a half-built database.
 */
export function ensureSampleDatabase(dir: string = DEFAULT_SAMPLE_DIR): string {
  const sql = readFileSync(SAMPLE_SQL_PATH, 'utf8');
  const hash = createHash('sha256').update(sql).digest('hex').slice(0, 12);
  const target = join(dir, `sales-${hash}.db`);
  if (existsSync(target)) return target;
  mkdirSync(dir, { recursive: true });
  const temp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const db = openSqlite(temp);
  try {
    db.exec(sql);
  } catch (error) {
    db.close();
    rmSync(temp, { force: true });
    throw error;
  }
  db.close();
  renameSync(temp, target);
  for (const name of readdirSync(dir)) {
    if (/^sales-[0-9a-f]{12}\.db$/.test(name) && join(dir, name) !== target) rmSync(join(dir, name), { force: true });
  }
  return target;
}
