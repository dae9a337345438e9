import { acquireSqlite, checkStoreId, CorruptRecordError, decodeRecord, encodeRecord, migrateSqlite, type SqliteHandle } from '../../storage/index.js';
import { entityKey, entityProblem, type Entity } from './entity.js';
import { DEFAULT_MEMORY_NAMESPACE, type EntityStore } from './entity-store.js';

/** Schema of the `entities` subsystem: migrations[i] takes version i to i + 1. */
export const ENTITY_MIGRATIONS: readonly string[] = [
  `CREATE TABLE agentlib_entities (
     namespace TEXT NOT NULL,
     key TEXT NOT NULL,
     data TEXT NOT NULL,
     PRIMARY KEY (namespace, key)
   ) WITHOUT ROWID;`,
];

const KIND = 'entity';
const VERSION = 1;

/**
 * Entities in a SQLite table (`agentlib_entities`) of the shared database file (default
 * `.agentlib/agentlib.db`), through the storage module's one connection per file; each row is a
 * versioned record.
 */
export class SQLiteEntityStore implements EntityStore {
  readonly namespace: string;
  readonly path: string;
  readonly #handle: SqliteHandle;

  constructor(options: { path?: string; namespace?: string } = {}) {
    this.namespace = checkStoreId(options.namespace ?? DEFAULT_MEMORY_NAMESPACE, 'entity namespace');
    this.#handle = acquireSqlite(options.path ?? '.agentlib/agentlib.db');
    this.path = this.#handle.path;
    try {
      migrateSqlite(this.#handle.db, 'entities', [...ENTITY_MIGRATIONS]);
    } catch (error) {
      this.#handle.release();
      throw error;
    }
  }

  all(): Promise<Entity[]> {
    const rows = this.#handle.db.prepare('SELECT key, data FROM agentlib_entities WHERE namespace = ? ORDER BY key').all(this.namespace) as { key: string; data: string }[];
    return Promise.resolve(
      rows.map((row) => {
        const where = `${this.path} entity ${this.namespace}/${row.key}`;
        const entity = decodeRecord<unknown>(row.data, { kind: KIND, version: VERSION, where });
        const problem = entityProblem(entity);
        if (problem !== undefined) throw new CorruptRecordError({ where, reason: problem });
        return entity as Entity;
      }),
    );
  }

  put(entities: readonly Entity[]): Promise<void> {
    const insert = this.#handle.db.prepare('INSERT INTO agentlib_entities (namespace, key, data) VALUES (?, ?, ?) ON CONFLICT (namespace, key) DO UPDATE SET data = excluded.data');
    this.#handle.db.transaction(() => {
      for (const entity of entities) insert.run(this.namespace, entityKey(entity.name), encodeRecord(KIND, VERSION, entity));
    }).immediate();
    return Promise.resolve();
  }

  delete(names: readonly string[]): Promise<void> {
    const remove = this.#handle.db.prepare('DELETE FROM agentlib_entities WHERE namespace = ? AND key = ?');
    this.#handle.db.transaction(() => {
      for (const name of names) remove.run(this.namespace, entityKey(name));
    }).immediate();
    return Promise.resolve();
  }

  clear(): Promise<void> {
    this.#handle.db.prepare('DELETE FROM agentlib_entities WHERE namespace = ?').run(this.namespace);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.#handle.release();
    return Promise.resolve();
  }
}
