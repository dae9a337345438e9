import { mkdirSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { registerConnection } from './connection-registry.js';
import { openSqlite, type SqliteDatabase } from './sqlite.js';

/** A use of the shared connection to one SQLite file; call `release()` when done with it. */
export interface SqliteHandle {
  /** The connection (shared with every other user of the same file in this process). */
  readonly db: SqliteDatabase;
  /** The database file's absolute path (`:memory:` for an in-memory database). */
  readonly path: string;
  /** Gives the connection back; the last release closes it. Calling it twice does nothing. */
  release(): void;
}

interface Shared {
  db: SqliteDatabase;
  users: number;
  unregister: () => void;
}

const shared = new Map<string, Shared>();

/** How long a connection waits for another process's write lock before SQLITE_BUSY (ms). */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000;

function canonical(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    try {
      return resolve(realpathSync(dirname(absolute)), absolute.slice(dirname(absolute).length + 1));
    } catch {
      return absolute;
    }
  }
}

function configure(db: SqliteDatabase, inMemory: boolean): void {
  if (!inMemory) db.pragma('journal_mode = WAL');
  db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
}

/**
 * The one better-sqlite3 connection of this process to the SQLite file `path` (created with its
 * directory when missing), in WAL mode with a busy timeout: every store on the same file shares
 * it (sessions, checkpoints, caches… in `.agentlib/agentlib.db`). Reference-counted: the last
 * `release()` closes it. `:memory:` opens a private in-memory database for each call.
 */
export function acquireSqlite(path: string): SqliteHandle {
  if (path === ':memory:') {
    const db = openSqlite(':memory:');
    configure(db, true);
    let released = false;
    const unregister = registerConnection(() => {
      if (db.open) db.close();
    });
    return {
      db,
      path,
      release() {
        if (released) return;
        released = true;
        unregister();
        if (db.open) db.close();
      },
    };
  }
  mkdirSync(dirname(resolve(path)), { recursive: true });
  const key = canonical(path);
  let entry = shared.get(key);
  if (entry === undefined || !entry.db.open) {
    const db = openSqlite(key);
    configure(db, false);
    const created: Shared = {
      db,
      users: 0,
      unregister: () => undefined,
    };
    created.unregister = registerConnection(() => {
      shared.delete(key);
      if (db.open) db.close();
    });
    shared.set(key, created);
    entry = created;
  }
  const current = entry;
  current.users += 1;
  let released = false;
  return {
    db: current.db,
    path: key,
    release() {
      if (released) return;
      released = true;
      current.users -= 1;
      if (current.users > 0) return;
      current.unregister();
      if (shared.get(key) === current) shared.delete(key);
      if (current.db.open) current.db.close();
    },
  };
}
