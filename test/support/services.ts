// The Redis and PostgreSQL servers of a test run (started by scripts/run-tests.mjs, see
// scripts/test-services.mjs). Call these inside a suite guarded by `requires('redis')` /
// `requires('postgres')`: each test file gets its own key namespace or database, so files running
// in parallel never see each other's data.
import { randomBytes } from 'node:crypto';
import { serviceUrl } from './requirements.js';

/** The test run's Redis URL (`redis://127.0.0.1:port`). */
export function redisTestUrl(): string {
  return serviceUrl('redis');
}

/** A key prefix no other test uses: `t:<random>:`. Keys under it are the test's own. */
export function redisTestPrefix(label = 't'): string {
  return `${label}:${randomBytes(6).toString('hex')}:`;
}

/** A throwaway PostgreSQL database and its URL. */
export interface TestDatabase {
  /** `postgres://agentlib@127.0.0.1:port/t_<random>`. */
  url: string;
  /** The database name. */
  name: string;
  /** Drops the database (closing whatever is still connected to it). */
  drop(): Promise<void>;
}

interface PgClient {
  connect(): Promise<void>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const pg = (await import('pg')).default as unknown as { Client: new (config: { connectionString: string }) => PgClient };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Creates a new, empty database on the test run's PostgreSQL server for one test file (or test);
 * `drop()` removes it. Use its `url` wherever a `postgres://` store URL goes.
 */
export async function freshPostgresDatabase(): Promise<TestDatabase> {
  const server = serviceUrl('postgres');
  const name = `t_${randomBytes(8).toString('hex')}`;
  await adminQuery(server, `CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => adminQuery(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
