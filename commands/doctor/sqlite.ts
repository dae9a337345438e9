import { checkResult, type CheckResult } from './check.js';

/** The slice of better-sqlite3 the check uses. */
interface SqliteDatabase {
  prepare(sql: string): { pluck(): { get(): unknown } };
  close(): unknown;
}
type SqliteConstructor = new (filename: string) => SqliteDatabase;

async function importBetterSqlite(): Promise<SqliteConstructor> {
  const module = (await import('better-sqlite3')) as unknown as { default: SqliteConstructor };
  return module.default;
}

/**
 * Loads the better-sqlite3 native module, opens an in-memory database and asks its SQLite version.
 * Optional (a warning) unless the agent file uses `session.store: sqlite`.
 */
export async function checkSqlite(options: { required?: boolean; load?: () => Promise<SqliteConstructor> } = {}): Promise<CheckResult> {
  const required = options.required ?? false;
  const base = { id: 'sqlite', title: 'SQLite (better-sqlite3)', required };
  try {
    const Database = await (options.load ?? importBetterSqlite)();
    const db = new Database(':memory:');
    try {
      const version = String(db.prepare('select sqlite_version()').pluck().get());
      return checkResult({ ...base, status: 'ok', detail: `native module loads; SQLite ${version}`, data: { sqliteVersion: version } });
    } finally {
      db.close();
    }
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error);
    return checkResult({
      ...base,
      status: 'fail',
      detail: `cannot load better-sqlite3: ${message}`,
      hint: 'rebuild the native module for this Node.js: npm rebuild better-sqlite3',
    });
  }
}
