import type { Pool } from 'pg';
import { migratePostgres } from '../../storage/migrate-postgres.js';
import { acquirePostgres, type PostgresHandle } from '../../storage/postgres-pool.js';
import { checkStoreId } from '../../storage/store-id.js';
import { redactStoreUrl } from '../../storage/store-url.js';
import { decodeCheckpoint, encodeCheckpoint } from './codec.js';
import { pageLimit } from './page.js';
import { CHECKPOINT_SUBSYSTEM, INTERRUPT_CLAIMS_TABLE } from './sqlite-store.js';
import type { Checkpoint, CheckpointStore, InterruptClaim, ListCheckpointsOptions } from './types.js';

/** migrations[i] takes the checkpoint tables from version i to i + 1. */
export const POSTGRES_CHECKPOINT_MIGRATIONS: readonly string[] = [
  `CREATE TABLE graph_checkpoints (
     seq BIGSERIAL PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     thread_id TEXT NOT NULL,
     created_at TIMESTAMPTZ NOT NULL,
     record TEXT NOT NULL
   );
   CREATE INDEX graph_checkpoints_thread ON graph_checkpoints (thread_id, seq);`,
  INTERRUPT_CLAIMS_TABLE,
];

/**
 * Checkpoints in PostgreSQL (`pg`, an optional peer dependency), through the storage module's one
 * pool per URL: every process sharing the database sees every thread, so any of them can resume
 * a run. The record is kept as text (exactly what was written). Open with `PostgresCheckpointStore.open(url)`.
 */
export class PostgresCheckpointStore implements CheckpointStore {
  readonly #handle: PostgresHandle;
  readonly #pool: Pool;
  readonly #where: string;

  private constructor(handle: PostgresHandle, where: string) {
    this.#handle = handle;
    this.#pool = handle.pool;
    this.#where = where;
  }

  /** Connects to `url` (`postgres://user:pw@host:port/db`) and migrates the checkpoint tables. */
  static async open(url: string): Promise<PostgresCheckpointStore> {
    const handle = await acquirePostgres(url);
    const where = redactStoreUrl(url);
    try {
      await migratePostgres(handle.pool, CHECKPOINT_SUBSYSTEM, POSTGRES_CHECKPOINT_MIGRATIONS, where);
    } catch (error) {
      await handle.release();
      throw error;
    }
    return new PostgresCheckpointStore(handle, where);
  }

  /** @internal Tests: stores `text` as it is (a corrupt or future-version record). */
  async putRaw(threadId: string, id: string, text: string): Promise<void> {
    await this.#pool.query('INSERT INTO graph_checkpoints (id, thread_id, created_at, record) VALUES ($1, $2, now(), $3)', [id, threadId, text]);
  }

  async put(checkpoint: Checkpoint): Promise<void> {
    checkStoreId(checkpoint.threadId, 'thread id');
    checkStoreId(checkpoint.id, 'checkpoint id');
    await this.#pool.query('INSERT INTO graph_checkpoints (id, thread_id, created_at, record) VALUES ($1, $2, $3, $4)', [checkpoint.id, checkpoint.threadId, checkpoint.createdAt, encodeCheckpoint(checkpoint)]);
  }

  async getLatest(threadId: string): Promise<Checkpoint | undefined> {
    const { rows } = await this.#pool.query<Row>('SELECT id, record FROM graph_checkpoints WHERE thread_id = $1 ORDER BY seq DESC LIMIT 1', [checkStoreId(threadId, 'thread id')]);
    return rows[0] ? this.#decode(rows[0]) : undefined;
  }

  async get(checkpointId: string): Promise<Checkpoint | undefined> {
    const { rows } = await this.#pool.query<Row>('SELECT id, record FROM graph_checkpoints WHERE id = $1', [checkpointId]);
    return rows[0] ? this.#decode(rows[0]) : undefined;
  }

  async list(threadId: string, options: ListCheckpointsOptions = {}): Promise<Checkpoint[]> {
    checkStoreId(threadId, 'thread id');
    const limit = pageLimit(options);
    const { rows } =
      options.before === undefined
        ? await this.#pool.query<Row>('SELECT id, record FROM graph_checkpoints WHERE thread_id = $1 ORDER BY seq DESC LIMIT $2', [threadId, limit])
        : await this.#pool.query<Row>(
            'SELECT id, record FROM graph_checkpoints WHERE thread_id = $1 AND seq < (SELECT seq FROM graph_checkpoints WHERE id = $2 AND thread_id = $1) ORDER BY seq DESC LIMIT $3',
            [threadId, options.before, limit],
          );
    return rows.map((row) => this.#decode(row));
  }

  async threads(): Promise<string[]> {
    const { rows } = await this.#pool.query<{ thread_id: string }>('SELECT DISTINCT thread_id FROM graph_checkpoints ORDER BY thread_id');
    return rows.map((r) => r.thread_id);
  }

  async deleteThread(threadId: string): Promise<number> {
    checkStoreId(threadId, 'thread id');
    await this.#pool.query('DELETE FROM graph_interrupt_claims WHERE thread_id = $1', [threadId]);
    const result = await this.#pool.query('DELETE FROM graph_checkpoints WHERE thread_id = $1', [threadId]);
    return result.rowCount ?? 0;
  }

  async claimInterrupt(threadId: string, claim: InterruptClaim, takeOver = false): Promise<InterruptClaim | undefined> {
    checkStoreId(threadId, 'thread id');
    const args = [claim.interruptId, threadId, claim.owner, claim.claimedAt];
    if (takeOver) {
      await this.#pool.query('INSERT INTO graph_interrupt_claims (interrupt_id, thread_id, owner, claimed_at) VALUES ($1, $2, $3, $4) ON CONFLICT (interrupt_id) DO UPDATE SET owner = excluded.owner, claimed_at = excluded.claimed_at', args);
      return undefined;
    }
    // One statement: of two servers inserting at once, exactly one gets the row back.
    const taken = await this.#pool.query('INSERT INTO graph_interrupt_claims (interrupt_id, thread_id, owner, claimed_at) VALUES ($1, $2, $3, $4) ON CONFLICT (interrupt_id) DO NOTHING RETURNING interrupt_id', args);
    if (taken.rowCount === 1) return undefined;
    const { rows } = await this.#pool.query<InterruptClaim>('SELECT interrupt_id AS "interruptId", owner, claimed_at AS "claimedAt" FROM graph_interrupt_claims WHERE interrupt_id = $1', [claim.interruptId]);
    // Released between the two statements: try again.
    return rows[0] ?? this.claimInterrupt(threadId, claim);
  }

  async releaseInterrupt(threadId: string, interruptId: string, owner: string): Promise<void> {
    checkStoreId(threadId, 'thread id');
    await this.#pool.query('DELETE FROM graph_interrupt_claims WHERE interrupt_id = $1 AND owner = $2', [interruptId, owner]);
  }

  async close(): Promise<void> {
    await this.#handle.release();
  }

  #decode(row: Row): Checkpoint {
    return decodeCheckpoint(row.record, `${this.#where}: graph_checkpoints row "${row.id}"`);
  }
}

interface Row {
  id: string;
  record: string;
}
