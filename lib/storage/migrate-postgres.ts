import type { Pool } from 'pg';
import { SchemaVersionError } from './errors/schema-version-error.js';
import { SCHEMA_TABLE } from './migrate-sqlite.js';

/** The advisory lock key that serialises agentlib migrations on one PostgreSQL database. */
const MIGRATION_LOCK = 0x6167_6c62; // 'aglb'

/**
 * Brings `subsystem`'s tables on the PostgreSQL database of `pool` to the newest version:
 * `migrations[i]` takes version i to i + 1, all in one transaction under an advisory lock, so
 * servers starting at once migrate exactly once. A database newer than the code throws
 * SchemaVersionError. Returns the version the database is at.
 */
export async function migratePostgres(pool: Pool, subsystem: string, migrations: readonly string[], where = 'PostgreSQL database'): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS ${SCHEMA_TABLE} (subsystem TEXT PRIMARY KEY, version INTEGER NOT NULL)`);
    const result = await client.query<{ version: number }>(`SELECT version FROM ${SCHEMA_TABLE} WHERE subsystem = $1`, [subsystem]);
    const current = result.rows[0]?.version ?? 0;
    if (current > migrations.length) throw new SchemaVersionError({ subsystem, found: current, supported: migrations.length, where });
    for (let version = current; version < migrations.length; version += 1) await client.query(migrations[version] ?? '');
    if (current !== migrations.length) {
      await client.query(
        `INSERT INTO ${SCHEMA_TABLE} (subsystem, version) VALUES ($1, $2) ON CONFLICT (subsystem) DO UPDATE SET version = EXCLUDED.version`,
        [subsystem, migrations.length],
      );
    }
    await client.query('COMMIT');
    return migrations.length;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
