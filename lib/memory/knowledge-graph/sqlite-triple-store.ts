import { acquireSqlite, checkStoreId, migrateSqlite, type SqliteHandle } from '../../storage/index.js';
import { DEFAULT_MEMORY_NAMESPACE } from '../entities/entity-store.js';
import { checkDeleteQuery, rankHits } from './memory-triple-store.js';
import { compareTriples, normalizeTriple, queryLimit, tripleKey, type Triple, type TripleQuery } from './triple.js';
import type { TripleStore } from './triple-store.js';

/** Schema of the `triples` subsystem: migrations[i] takes version i to i + 1. */
export const TRIPLE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE agentlib_triples (
     namespace TEXT NOT NULL,
     subject_key TEXT NOT NULL,
     relation_key TEXT NOT NULL,
     object_key TEXT NOT NULL,
     subject TEXT NOT NULL,
     relation TEXT NOT NULL,
     object TEXT NOT NULL,
     confidence REAL NOT NULL,
     PRIMARY KEY (namespace, subject_key, relation_key, object_key)
   ) WITHOUT ROWID;
   CREATE INDEX agentlib_triples_relation ON agentlib_triples (namespace, relation_key);
   CREATE INDEX agentlib_triples_object ON agentlib_triples (namespace, object_key);`,
];

interface Row {
  subject: string;
  relation: string;
  object: string;
  confidence: number;
}

const COLUMNS = 'subject, relation, object, confidence';

/** `%text%` for LIKE, with `%`, `_` and the escape character escaped. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Triples in a SQLite table (`agentlib_triples`) of the shared database file (default
 * `.agentlib/agentlib.db`), through the storage module's one connection per file. Lookups by
 * subject, relation or object use indexes on the lower-cased fields.
 */
export class SQLiteTripleStore implements TripleStore {
  readonly namespace: string;
  readonly path: string;
  readonly #handle: SqliteHandle;

  constructor(options: { path?: string; namespace?: string } = {}) {
    this.namespace = checkStoreId(options.namespace ?? DEFAULT_MEMORY_NAMESPACE, 'triple namespace');
    this.#handle = acquireSqlite(options.path ?? '.agentlib/agentlib.db');
    this.path = this.#handle.path;
    try {
      migrateSqlite(this.#handle.db, 'triples', [...TRIPLE_MIGRATIONS]);
    } catch (error) {
      this.#handle.release();
      throw error;
    }
  }

  add(triples: readonly Triple[]): Promise<number> {
    const clean = triples.map(normalizeTriple);
    const db = this.#handle.db;
    const known = db.prepare('SELECT confidence FROM agentlib_triples WHERE namespace = ? AND subject_key = ? AND relation_key = ? AND object_key = ?');
    const insert = db.prepare(`INSERT INTO agentlib_triples (namespace, subject_key, relation_key, object_key, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (namespace, subject_key, relation_key, object_key) DO UPDATE SET confidence = max(confidence, excluded.confidence)`);
    const added = db.transaction(() => {
      let count = 0;
      for (const triple of clean) {
        const key = tripleKey(triple);
        if (known.get(this.namespace, ...key) === undefined) count++;
        insert.run(this.namespace, ...key, triple.subject, triple.relation, triple.object, triple.confidence);
      }
      return count;
    }).immediate();
    return Promise.resolve(added);
  }

  #where(query: Omit<TripleQuery, 'limit'>): { sql: string; params: string[] } {
    const [s, r, o] = tripleKey({ subject: query.subject ?? '', relation: query.relation ?? '', object: query.object ?? '' });
    const clauses = ['namespace = ?'];
    const params = [this.namespace];
    for (const [given, column, value] of [[query.subject, 'subject_key', s], [query.relation, 'relation_key', r], [query.object, 'object_key', o]] as const) {
      if (given === undefined) continue;
      clauses.push(`${column} = ?`);
      params.push(value);
    }
    return { sql: clauses.join(' AND '), params };
  }

  query(query: TripleQuery = {}): Promise<Triple[]> {
    const limit = queryLimit(query.limit);
    const { sql, params } = this.#where(query);
    const rows = this.#handle.db.prepare(`SELECT ${COLUMNS} FROM agentlib_triples WHERE ${sql}`).all(...params) as Row[];
    const sorted = rows.map((row) => ({ ...row })).sort(compareTriples);
    return Promise.resolve(sorted.slice(0, limit ?? sorted.length));
  }

  search(keywords: readonly string[], limit?: number): Promise<Triple[]> {
    const max = queryLimit(limit);
    const terms = [...new Set(keywords.map((k) => k.toLowerCase()).filter((k) => k !== ''))];
    if (terms.length === 0) return Promise.resolve([]);
    // Candidates by substring (LIKE), then whole-word matching and ranking shared with the memory store.
    const like = terms.map(() => "(subject_key LIKE ? ESCAPE '\\' OR relation_key LIKE ? ESCAPE '\\' OR object_key LIKE ? ESCAPE '\\')").join(' OR ');
    const params = terms.flatMap((t) => [containsPattern(t), containsPattern(t), containsPattern(t)]);
    const rows = this.#handle.db.prepare(`SELECT ${COLUMNS} FROM agentlib_triples WHERE namespace = ? AND (${like})`).all(this.namespace, ...params) as Row[];
    return Promise.resolve(rankHits(rows.map((row) => ({ ...row })), terms, max));
  }

  delete(query: Omit<TripleQuery, 'limit'>): Promise<number> {
    checkDeleteQuery(query);
    const { sql, params } = this.#where(query);
    return Promise.resolve(this.#handle.db.prepare(`DELETE FROM agentlib_triples WHERE ${sql}`).run(...params).changes);
  }

  count(): Promise<number> {
    const row = this.#handle.db.prepare('SELECT count(*) AS n FROM agentlib_triples WHERE namespace = ?').get(this.namespace) as { n: number };
    return Promise.resolve(row.n);
  }

  clear(): Promise<void> {
    this.#handle.db.prepare('DELETE FROM agentlib_triples WHERE namespace = ?').run(this.namespace);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.#handle.release();
    return Promise.resolve();
  }
}
