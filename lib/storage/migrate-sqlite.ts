import { SchemaVersionError } from './errors/schema-version-error.js';
import type { SqliteDatabase } from './sqlite.js';

/** The table that records each subsystem's schema version, in every database the module opens. */
export const SCHEMA_TABLE = 'agentlib_schema';

const done = new WeakMap<SqliteDatabase, Map<string, number>>();

/**
 * Brings `subsystem`'s tables in `db` to the newest version: `migrations[i]` is the SQL script
 * that takes version i to i + 1 (so `migrations.length` is the newest version), applied in one
 * IMMEDIATE transaction, so processes migrating the same file at once do it exactly once. A
 * database whose version is newer than `migrations.length` throws SchemaVersionError.
 * Returns the version the database is at.
 */
export function migrateSqlite(db: SqliteDatabase, subsystem: string, migrations: readonly string[], where = 'SQLite database'): number {
  const known = done.get(db)?.get(subsystem);
  if (known === migrations.length) return known;
  db.exec(`CREATE TABLE IF NOT EXISTS ${SCHEMA_TABLE} (subsystem TEXT PRIMARY KEY, version INTEGER NOT NULL)`);
  const read = db.prepare(`SELECT version FROM ${SCHEMA_TABLE} WHERE subsystem = ?`);
  const write = db.prepare(`INSERT INTO ${SCHEMA_TABLE} (subsystem, version) VALUES (?, ?) ON CONFLICT(subsystem) DO UPDATE SET version = excluded.version`);
  const run = db.transaction((): number => {
    const row = read.get(subsystem) as { version: number } | undefined;
    const current = row?.version ?? 0;
    if (current > migrations.length) throw new SchemaVersionError({ subsystem, found: current, supported: migrations.length, where });
    for (let version = current; version < migrations.length; version += 1) db.exec(migrations[version] ?? '');
    if (current !== migrations.length) write.run(subsystem, migrations.length);
    return migrations.length;
  });
  const version = db.inTransaction ? run() : run.immediate();
  let perDb = done.get(db);
  if (perDb === undefined) {
    perDb = new Map();
    done.set(db, perDb);
  }
  perDb.set(subsystem, version);
  return version;
}
