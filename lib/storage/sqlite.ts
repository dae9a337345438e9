import { createRequire } from 'node:module';

/** A prepared statement: the part of better-sqlite3's `Statement` that agentlib's helpers expose. */
export interface SqliteStatement {
  /** Every row. */
  all(...params: unknown[]): unknown[];
  /** The first row, or undefined. */
  get(...params: unknown[]): unknown;
  /** Runs a statement that returns no rows. */
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  /** Iterates the rows one at a time. */
  iterate(...params: unknown[]): IterableIterator<unknown>;
  /** True when the statement does not write. */
  readonly readonly: boolean;
}

/**
 * A function wrapped by {@link SqliteDatabase.transaction}: calling it runs the body in one
 * transaction (BEGIN … COMMIT, ROLLBACK on a throw); `.immediate(...)` takes the write lock at the
 * start (BEGIN IMMEDIATE), which is what concurrent writers from several processes need.
 */
export type SqliteTransaction<A extends unknown[], R> = ((...args: A) => R) & {
  deferred(...args: A): R;
  immediate(...args: A): R;
  exclusive(...args: A): R;
};

/** An open SQLite database: the part of better-sqlite3's `Database` that agentlib's helpers expose. */
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  /** Runs one or more statements (a script). */
  exec(sql: string): unknown;
  /** Runs a PRAGMA (`'query_only = ON'`). */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  /** Wraps `fn` so each call runs in one transaction (better-sqlite3's `db.transaction`). */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): SqliteTransaction<A, R>;
  close(): unknown;
  readonly open: boolean;
  /** True inside a transaction. */
  readonly inTransaction: boolean;
}

/** Options of {@link openSqlite} (better-sqlite3's). */
export interface OpenSqliteOptions {
  /** Open read-only. Default false. */
  readonly?: boolean;
  /** Fail when the file does not exist instead of creating it. Default false. */
  fileMustExist?: boolean;
}

type DatabaseConstructor = new (file: string, options?: OpenSqliteOptions) => SqliteDatabase;

const require = createRequire(import.meta.url);

/**
 * The path of the better-sqlite3 module agentlib depends on, resolved from agentlib's own
 * installation: for a child process that opens a database (`require(sqliteDriverPath())`), and
 * for tools that must not depend on what the project itself installed.
 */
export function sqliteDriverPath(): string {
  return require.resolve('better-sqlite3');
}

/**
 * Opens a SQLite database file with agentlib's own better-sqlite3 (loaded on the first call), so a
 * tool module needs no SQLite package of its own: `openSqlite('sales.db', { readonly: true })`.
 */
export function openSqlite(file: string, options: OpenSqliteOptions = {}): SqliteDatabase {
  const Database = require('better-sqlite3') as DatabaseConstructor;
  return new Database(file, options);
}
