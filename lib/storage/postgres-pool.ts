import type { Pool, PoolConfig } from 'pg';
import { loadOptional } from './optional-module.js';
import { SharedResources } from './shared-resource.js';

/** A use of the shared PostgreSQL pool for one URL; call `release()` when done with it. */
export interface PostgresHandle {
  /** The `pg` Pool (shared with every other user of the same URL in this process). */
  readonly pool: Pool;
  /** Gives the pool back; the last release ends it. Calling it twice does nothing. */
  release(): Promise<void>;
}

/** The `pg` module's shape that the pool needs (default export in ESM). */
interface PgModule {
  default?: { Pool: new (config: PoolConfig) => Pool };
  Pool?: new (config: PoolConfig) => Pool;
}

const pools = new SharedResources<Pool>((pool) => pool.end());

/**
 * The one `pg` Pool of this process for the PostgreSQL server at `url` (`postgres://user:pw@host:port/db`),
 * loaded lazily (`pg` is an optional dependency: "install pg to use PostgreSQL stores" when missing).
 * Reference-counted: the last `release()` ends the pool.
 */
export async function acquirePostgres(url: string, options: { max?: number } = {}): Promise<PostgresHandle> {
  const use = await pools.acquire(url, async () => {
    const pg = await loadOptional<PgModule>('pg', 'PostgreSQL stores');
    const PoolClass = pg.Pool ?? pg.default?.Pool;
    if (PoolClass === undefined) throw new Error('the installed pg package has no Pool export');
    const pool = new PoolClass({ connectionString: url, max: options.max ?? 10 });
    // An idle client's error (the server restarted) must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    return pool;
  });
  return { pool: use.value, release: () => use.release() };
}
