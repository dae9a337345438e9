import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { checkStoreId } from '../../storage/index.js';
import { DEFAULT_MEMORY_NAMESPACE } from '../entities/entity-store.js';
import { compareTriples, keywordScore, normalizeTriple, queryLimit, tripleKey, type Triple, type TripleQuery } from './triple.js';
import type { TripleStore } from './triple-store.js';

/** Does `triple` match every field `query` gives? */
export function matchesQuery(triple: Triple, query: Omit<TripleQuery, 'limit'>): boolean {
  const [s, r, o] = tripleKey(triple);
  const [qs, qr, qo] = tripleKey({ subject: query.subject ?? '', relation: query.relation ?? '', object: query.object ?? '' });
  return (query.subject === undefined || s === qs) && (query.relation === undefined || r === qr) && (query.object === undefined || o === qo);
}

/** Orders search hits: most keywords matched, then store order; cut at `limit`. */
export function rankHits(triples: readonly Triple[], keywords: readonly string[], limit: number | undefined): Triple[] {
  const scored = triples.map((t) => ({ t, score: keywordScore(t, keywords) })).filter((x) => x.score > 0);
  scored.sort((a, b) => b.score - a.score || compareTriples(a.t, b.t));
  return scored.slice(0, limit ?? scored.length).map((x) => x.t);
}

/** Refuses a delete without any field (it would delete everything; `clear()` does that). */
export function checkDeleteQuery(query: Omit<TripleQuery, 'limit'>): void {
  if (query.subject === undefined && query.relation === undefined && query.object === undefined) {
    throw new ConfigurationError('TripleStore.delete needs a subject, relation or object (clear() deletes everything)', { key: 'query' });
  }
}

/** Triples in process memory (tests, short-lived agents); copies in and out. */
export class MemoryTripleStore implements TripleStore {
  readonly namespace: string;
  readonly #triples = new Map<string, Triple>();

  constructor(options: { namespace?: string } = {}) {
    this.namespace = checkStoreId(options.namespace ?? DEFAULT_MEMORY_NAMESPACE, 'triple namespace');
  }

  add(triples: readonly Triple[]): Promise<number> {
    const clean = triples.map(normalizeTriple);
    let added = 0;
    for (const triple of clean) {
      const key = JSON.stringify(tripleKey(triple));
      const known = this.#triples.get(key);
      if (known === undefined) added++;
      this.#triples.set(key, known === undefined ? triple : { ...known, confidence: Math.max(known.confidence, triple.confidence) });
    }
    return Promise.resolve(added);
  }

  query(query: TripleQuery = {}): Promise<Triple[]> {
    const limit = queryLimit(query.limit);
    const hits = [...this.#triples.values()].filter((t) => matchesQuery(t, query)).sort(compareTriples);
    return Promise.resolve(hits.slice(0, limit ?? hits.length).map((t) => ({ ...t })));
  }

  search(keywords: readonly string[], limit?: number): Promise<Triple[]> {
    return Promise.resolve(rankHits([...this.#triples.values()], keywords, queryLimit(limit)).map((t) => ({ ...t })));
  }

  delete(query: Omit<TripleQuery, 'limit'>): Promise<number> {
    checkDeleteQuery(query);
    let removed = 0;
    for (const [key, triple] of this.#triples) {
      if (matchesQuery(triple, query)) {
        this.#triples.delete(key);
        removed++;
      }
    }
    return Promise.resolve(removed);
  }

  count(): Promise<number> {
    return Promise.resolve(this.#triples.size);
  }

  clear(): Promise<void> {
    this.#triples.clear();
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
