import { acquireSqlite, checkStoreId, CorruptRecordError, decodeRecord, encodeRecord, migrateSqlite, type SqliteHandle } from '../../storage/index.js';
import { DEFAULT_MEMORY_NAMESPACE } from '../entities/entity-store.js';
import { checkDay, checkEntry, compareEntries, entryProblem, type KnowledgeEntry } from './knowledge-entry.js';
import { oneLine, type KnowledgeStore } from './knowledge-store.js';

/** Schema of the `knowledge` subsystem: migrations[i] takes version i to i + 1. */
export const KNOWLEDGE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE agentlib_knowledge (
     namespace TEXT NOT NULL,
     id TEXT NOT NULL,
     data TEXT NOT NULL,
     PRIMARY KEY (namespace, id)
   ) WITHOUT ROWID;
   CREATE TABLE agentlib_knowledge_log (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     namespace TEXT NOT NULL,
     day TEXT NOT NULL,
     line TEXT NOT NULL
   );
   CREATE INDEX agentlib_knowledge_log_day ON agentlib_knowledge_log (namespace, day, seq);`,
];

const KIND = 'knowledge-entry';
const VERSION = 1;

/**
 * Knowledge in two SQLite tables (`agentlib_knowledge`, `agentlib_knowledge_log`) of the shared
 * database file (default `.agentlib/agentlib.db`), through the storage module's one connection
 * per file. Several processes may share it.
 */
export class SQLiteKnowledgeStore implements KnowledgeStore {
  readonly namespace: string;
  readonly path: string;
  readonly #handle: SqliteHandle;

  constructor(options: { path?: string; namespace?: string } = {}) {
    this.namespace = checkStoreId(options.namespace ?? DEFAULT_MEMORY_NAMESPACE, 'knowledge namespace');
    this.#handle = acquireSqlite(options.path ?? '.agentlib/agentlib.db');
    this.path = this.#handle.path;
    try {
      migrateSqlite(this.#handle.db, 'knowledge', [...KNOWLEDGE_MIGRATIONS]);
    } catch (error) {
      this.#handle.release();
      throw error;
    }
  }

  #decode(id: string, data: string): KnowledgeEntry {
    const where = `${this.path} knowledge ${this.namespace}/${id}`;
    const entry = decodeRecord<unknown>(data, { kind: KIND, version: VERSION, where });
    const problem = entryProblem(entry);
    if (problem !== undefined) throw new CorruptRecordError({ where, reason: problem });
    return entry as KnowledgeEntry;
  }

  put(entry: KnowledgeEntry): Promise<void> {
    checkStoreId(entry.id, 'knowledge entry id');
    this.#handle.db
      .prepare('INSERT INTO agentlib_knowledge (namespace, id, data) VALUES (?, ?, ?) ON CONFLICT (namespace, id) DO UPDATE SET data = excluded.data')
      .run(this.namespace, entry.id, encodeRecord(KIND, VERSION, checkEntry(entry)));
    return Promise.resolve();
  }

  get(id: string): Promise<KnowledgeEntry | undefined> {
    const row = this.#handle.db.prepare('SELECT data FROM agentlib_knowledge WHERE namespace = ? AND id = ?').get(this.namespace, checkStoreId(id, 'knowledge entry id')) as { data: string } | undefined;
    return Promise.resolve(row === undefined ? undefined : this.#decode(id, row.data));
  }

  list(): Promise<KnowledgeEntry[]> {
    const rows = this.#handle.db.prepare('SELECT id, data FROM agentlib_knowledge WHERE namespace = ?').all(this.namespace) as { id: string; data: string }[];
    return Promise.resolve(rows.map((row) => this.#decode(row.id, row.data)).sort(compareEntries));
  }

  delete(id: string): Promise<boolean> {
    const changes = this.#handle.db.prepare('DELETE FROM agentlib_knowledge WHERE namespace = ? AND id = ?').run(this.namespace, checkStoreId(id, 'knowledge entry id')).changes;
    return Promise.resolve(changes > 0);
  }

  appendLog(day: string, line: string): Promise<void> {
    this.#handle.db.prepare('INSERT INTO agentlib_knowledge_log (namespace, day, line) VALUES (?, ?, ?)').run(this.namespace, checkDay(day), oneLine(line));
    return Promise.resolve();
  }

  readLog(day: string): Promise<string[]> {
    const rows = this.#handle.db.prepare('SELECT line FROM agentlib_knowledge_log WHERE namespace = ? AND day = ? ORDER BY seq').all(this.namespace, checkDay(day)) as { line: string }[];
    return Promise.resolve(rows.map((row) => row.line));
  }

  clear(): Promise<void> {
    this.#handle.db.transaction(() => {
      this.#handle.db.prepare('DELETE FROM agentlib_knowledge WHERE namespace = ?').run(this.namespace);
      this.#handle.db.prepare('DELETE FROM agentlib_knowledge_log WHERE namespace = ?').run(this.namespace);
    }).immediate();
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.#handle.release();
    return Promise.resolve();
  }
}
