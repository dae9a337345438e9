import type { SqliteDatabase, SqliteStatement } from '../../storage/sqlite.js';
import { acquireSqlite, type SqliteHandle } from '../../storage/sqlite-pool.js';
import { migrateSqlite } from '../../storage/migrate-sqlite.js';
import { checkStoreId } from '../../storage/store-id.js';
import { decodeCheckpoint, encodeCheckpoint } from './codec.js';
import { pageLimit } from './page.js';
import type { Checkpoint, CheckpointStore, InterruptClaim, ListCheckpointsOptions } from './types.js';

/** The subsystem name in `agentlib_schema`. */
export const CHECKPOINT_SUBSYSTEM = 'graph_checkpoints';

/** Version 2 of the checkpoint tables, the same SQL on SQLite and PostgreSQL: who is answering which interrupt. */
export const INTERRUPT_CLAIMS_TABLE = `CREATE TABLE graph_interrupt_claims (
     interrupt_id TEXT PRIMARY KEY,
     thread_id TEXT NOT NULL,
     owner TEXT NOT NULL,
     claimed_at TEXT NOT NULL
   );
   CREATE INDEX graph_interrupt_claims_thread ON graph_interrupt_claims (thread_id);`;

/** migrations[i] takes the checkpoint tables from version i to i + 1. */
export const SQLITE_CHECKPOINT_MIGRATIONS: readonly string[] = [
  `CREATE TABLE graph_checkpoints (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     thread_id TEXT NOT NULL,
     created_at TEXT NOT NULL,
     record TEXT NOT NULL
   );
   CREATE INDEX graph_checkpoints_thread ON graph_checkpoints (thread_id, seq);`,
  INTERRUPT_CLAIMS_TABLE,
];

/**
 * Checkpoints in a SQLite file (the default store: `.agentlib/agentlib.db`), through the storage
 * module's one shared connection per file (WAL, busy timeout). One row per checkpoint, written in
 * one statement (its own transaction); several processes may write one file, the sequence orders a
 * thread's checkpoints.
 */
export class SQLiteCheckpointStore implements CheckpointStore {
  readonly #handle: SqliteHandle;
  readonly #db: SqliteDatabase;
  readonly #insert: SqliteStatement;
  readonly #latest: SqliteStatement;
  readonly #byId: SqliteStatement;
  readonly #page: SqliteStatement;
  readonly #pageBefore: SqliteStatement;
  readonly #threads: SqliteStatement;
  readonly #delete: SqliteStatement;
  readonly #claim: SqliteStatement;
  readonly #takeOver: SqliteStatement;
  readonly #claimOf: SqliteStatement;
  readonly #release: SqliteStatement;
  readonly #deleteClaims: SqliteStatement;

  /** Opens (and migrates) the database file at `path`. */
  constructor(path: string) {
    this.#handle = acquireSqlite(path);
    this.#db = this.#handle.db;
    try {
      migrateSqlite(this.#db, CHECKPOINT_SUBSYSTEM, SQLITE_CHECKPOINT_MIGRATIONS, path);
    } catch (error) {
      this.#handle.release();
      throw error;
    }
    const db = this.#db;
    this.#insert = db.prepare('INSERT INTO graph_checkpoints (id, thread_id, created_at, record) VALUES (?, ?, ?, ?)');
    this.#latest = db.prepare('SELECT id, record FROM graph_checkpoints WHERE thread_id = ? ORDER BY seq DESC LIMIT 1');
    this.#byId = db.prepare('SELECT id, record FROM graph_checkpoints WHERE id = ?');
    this.#page = db.prepare('SELECT id, record FROM graph_checkpoints WHERE thread_id = ? ORDER BY seq DESC LIMIT ?');
    this.#pageBefore = db.prepare('SELECT id, record FROM graph_checkpoints WHERE thread_id = ? AND seq < (SELECT seq FROM graph_checkpoints WHERE id = ? AND thread_id = ?) ORDER BY seq DESC LIMIT ?');
    this.#threads = db.prepare('SELECT DISTINCT thread_id FROM graph_checkpoints ORDER BY thread_id');
    this.#delete = db.prepare('DELETE FROM graph_checkpoints WHERE thread_id = ?');
    this.#claim = db.prepare('INSERT INTO graph_interrupt_claims (interrupt_id, thread_id, owner, claimed_at) VALUES (?, ?, ?, ?) ON CONFLICT (interrupt_id) DO NOTHING');
    this.#takeOver = db.prepare('INSERT INTO graph_interrupt_claims (interrupt_id, thread_id, owner, claimed_at) VALUES (?, ?, ?, ?) ON CONFLICT (interrupt_id) DO UPDATE SET owner = excluded.owner, claimed_at = excluded.claimed_at');
    this.#claimOf = db.prepare('SELECT interrupt_id AS interruptId, owner, claimed_at AS claimedAt FROM graph_interrupt_claims WHERE interrupt_id = ?');
    this.#release = db.prepare('DELETE FROM graph_interrupt_claims WHERE interrupt_id = ? AND owner = ?');
    this.#deleteClaims = db.prepare('DELETE FROM graph_interrupt_claims WHERE thread_id = ?');
  }

  /** The database file. */
  get path(): string {
    return this.#handle.path;
  }

  /** @internal Tests: stores `text` as it is (a corrupt or future-version record). */
  putRaw(threadId: string, id: string, text: string): void {
    this.#insert.run(id, threadId, new Date().toISOString(), text);
  }

  // The methods are async so that every failure is a rejection, as with the other stores.
   
  async put(checkpoint: Checkpoint): Promise<void> {
    checkStoreId(checkpoint.threadId, 'thread id');
    checkStoreId(checkpoint.id, 'checkpoint id');
    this.#insert.run(checkpoint.id, checkpoint.threadId, checkpoint.createdAt, encodeCheckpoint(checkpoint));
  }

  async getLatest(threadId: string): Promise<Checkpoint | undefined> {
    return this.#decode(this.#latest.get(checkStoreId(threadId, 'thread id')));
  }

  async get(checkpointId: string): Promise<Checkpoint | undefined> {
    return this.#decode(this.#byId.get(checkpointId));
  }

  async list(threadId: string, options: ListCheckpointsOptions = {}): Promise<Checkpoint[]> {
    checkStoreId(threadId, 'thread id');
    const limit = pageLimit(options);
    const rows = options.before === undefined ? this.#page.all(threadId, limit) : this.#pageBefore.all(threadId, options.before, threadId, limit);
    return rows.map((row) => this.#decode(row) as Checkpoint);
  }

  async threads(): Promise<string[]> {
    return (this.#threads.all() as { thread_id: string }[]).map((r) => r.thread_id);
  }

  async deleteThread(threadId: string): Promise<number> {
    checkStoreId(threadId, 'thread id');
    this.#deleteClaims.run(threadId);
    return this.#delete.run(threadId).changes;
  }

  async claimInterrupt(threadId: string, claim: InterruptClaim, takeOver = false): Promise<InterruptClaim | undefined> {
    checkStoreId(threadId, 'thread id');
    const args = [claim.interruptId, threadId, claim.owner, claim.claimedAt];
    if (takeOver) {
      this.#takeOver.run(...args);
      return undefined;
    }
    // One statement: of two processes inserting at once, exactly one changes a row.
    if (this.#claim.run(...args).changes === 1) return undefined;
    // Released between the two statements (another process's resume ended): try again.
    return (this.#claimOf.get(claim.interruptId) as InterruptClaim | undefined) ?? this.claimInterrupt(threadId, claim);
  }

  async releaseInterrupt(threadId: string, interruptId: string, owner: string): Promise<void> {
    checkStoreId(threadId, 'thread id');
    this.#release.run(interruptId, owner);
  }

  async close(): Promise<void> {
    this.#handle.release();
  }
   

  #decode(row: unknown): Checkpoint | undefined {
    if (row === undefined) return undefined;
    const { id, record } = row as { id: string; record: string };
    return decodeCheckpoint(record, `${this.#handle.path}: graph_checkpoints row "${id}"`);
  }
}
