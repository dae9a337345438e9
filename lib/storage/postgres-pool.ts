import type { Pool, PoolConfig } from 'pg';
import { registerConnection } from './connection-registry.js';
import { loadOptional } from './optional-module.js';

/** A use of the shared PostgreSQL pool for one URL; call `release()` when done with it. */
export interface PostgresHandle {
  /** The `pg` Pool (shared with every other user of the same URL in this process). */
  readonly pool: Pool;
  /** Gives the pool back; the last release ends it. Calling it twice does nothing. */
  release(): Promise<void>;
}

interface Shared {
  pool: Promise<Pool>;
  users: number;
  unregister: () => void;
}

const shared = new Map<string, Shared>();

/** The `pg` module's shape that the pool needs (default export in ESM). */
interface PgModule {
  default?: { Pool: new (config: PoolConfig) => Pool };
  Pool?: new (config: PoolConfig) => Pool;
}

/**
 * The one `pg` Pool of this process for the PostgreSQL server at `url` (`postgres://user:pw@host:port/db`),
 * loaded lazily (`pg` is an optional dependency: "install pg to use PostgreSQL stores" when missing).
 * Reference-counted: the last `release()` ends the pool.
 */
export async function acquirePostgres(url: string, options: { max?: number } = {}): Promise<PostgresHandle> {
  let entry = shared.get(url);
  if (entry === undefined) {
    const pool = loadOptional<PgModule>('pg', 'PostgreSQL stores').then((pg) => {
      const PoolClass = pg.Pool ?? pg.default?.Pool;
      if (PoolClass === undefined) throw new Error('the installed pg package has no Pool export');
      const created = new PoolClass({ connectionString: url, max: options.max ?? 10 });
      // An idle client's error (the server restarted) must not crash the process; the next query reconnects.
      created.on('error', () => undefined);
      return created;
    });
    const created: Shared = { pool, users: 0, unregister: () => undefined };
    created.unregister = registerConnection(async () => {
      shared.delete(url);
      await (await pool).end();
    });
    shared.set(url, created);
    entry = created;
    pool.catch(() => {
      if (shared.get(url) === created) {
        shared.delete(url);
        created.unregister();
      }
    });
  }
  const current = entry;
  const pool = await current.pool;
  current.users += 1;
  let released = false;
  return {
    pool,
    async release() {
      if (released) return;
      released = true;
      current.users -= 1;
      if (current.users > 0) return;
      current.unregister();
      if (shared.get(url) === current) shared.delete(url);
      await pool.end();
    },
  };
}
