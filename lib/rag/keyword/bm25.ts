import type { Document, SearchResult } from '../document.js';
import { compileFilter, matchesFilter, type MetadataFilter } from '../filter/metadata-filter.js';
import { TopK } from '../top-k.js';
import { bm25Idf, DEFAULT_BM25, type BM25Parameters } from './bm25-score.js';
import { bm25Tokens, type TokenizeOptions } from './tokenize.js';

/** Options of {@link BM25}. */
export interface BM25Options extends Partial<BM25Parameters>, TokenizeOptions {
  /** Replaces the tokenizer (lowercase `[a-z0-9]+`, stop words dropped). */
  tokenize?: (text: string) => string[];
}

interface Postings {
  slots: number[];
  tfs: number[];
}

/**
 * An in-memory BM25 keyword index (k1 1.5, b 0.75 by default; terms are lowercase `[a-z0-9]+` runs
 * without English stop words). Documents are added and deleted incrementally; scores always use
 * the current collection (document count, document frequencies, average length) and equal the
 * formula of `bm25TermScore`. Search walks the postings of the query terms only and keeps the best
 * `topK` with a heap; a metadata filter restricts the results, not the statistics.
 *
 * @example
 * const index = new BM25();
 * index.add([{ text: 'Refunds take five days', metadata: { source: 'faq.md' } }]);
 * index.search('refund days', 3);
 */
export class BM25 {
  readonly #params: BM25Parameters;
  readonly #tokenize: (text: string) => string[];
  readonly #postings = new Map<string, Postings>();
  readonly #df = new Map<string, number>();
  readonly #docs: (Document | undefined)[] = [];
  readonly #lengths: number[] = [];
  readonly #terms: (string[] | undefined)[] = [];
  readonly #slotOf = new Map<string, number>();
  #live = 0;
  #totalLength = 0;
  #nextId = 1;
  #scratch = new Float64Array(0);

  constructor(options: BM25Options = {}) {
    this.#params = { k1: options.k1 ?? DEFAULT_BM25.k1, b: options.b ?? DEFAULT_BM25.b };
    const tokenizeOptions: TokenizeOptions = options.stopWords === undefined ? {} : { stopWords: options.stopWords };
    this.#tokenize = options.tokenize ?? ((text) => bm25Tokens(text, tokenizeOptions));
  }

  /** Documents in the index. */
  get size(): number {
    return this.#live;
  }

  /**
   * Adds documents (or replaces those whose `id` is already indexed); returns their ids (the
   * document's own `id`, else a generated `bm25-<n>`).
   */
  add(documents: readonly Document[]): string[] {
    const ids: string[] = [];
    for (const document of documents) {
      const id = document.id ?? `bm25-${this.#nextId++}`;
      if (this.#slotOf.has(id)) this.delete([id]);
      const slot = this.#docs.length;
      const tokens = this.#tokenize(document.text);
      const tf = new Map<string, number>();
      for (const token of tokens) tf.set(token, (tf.get(token) ?? 0) + 1);
      for (const [term, count] of tf) {
        let postings = this.#postings.get(term);
        if (!postings) this.#postings.set(term, (postings = { slots: [], tfs: [] }));
        postings.slots.push(slot);
        postings.tfs.push(count);
        this.#df.set(term, (this.#df.get(term) ?? 0) + 1);
      }
      this.#docs.push({ ...document, id });
      this.#lengths.push(tokens.length);
      this.#terms.push([...tf.keys()]);
      this.#slotOf.set(id, slot);
      this.#live += 1;
      this.#totalLength += tokens.length;
      ids.push(id);
    }
    return ids;
  }

  /** Removes documents by id; returns how many were indexed. */
  delete(ids: readonly string[]): number {
    let removed = 0;
    for (const id of ids) {
      const slot = this.#slotOf.get(id);
      if (slot === undefined) continue;
      this.#slotOf.delete(id);
      for (const term of this.#terms[slot] ?? []) {
        const df = (this.#df.get(term) ?? 1) - 1;
        if (df === 0) this.#df.delete(term);
        else this.#df.set(term, df);
      }
      this.#docs[slot] = undefined;
      this.#terms[slot] = undefined;
      this.#totalLength -= this.#lengths[slot] ?? 0;
      this.#live -= 1;
      removed += 1;
    }
    if (removed > 0 && this.#docs.length > 64 && this.#live * 2 < this.#docs.length) this.#compact();
    return removed;
  }

  /** Removes every document. */
  clear(): void {
    this.#postings.clear();
    this.#df.clear();
    this.#docs.length = this.#lengths.length = this.#terms.length = 0;
    this.#slotOf.clear();
    this.#live = this.#totalLength = 0;
  }

  /** The indexed document with this id. */
  get(id: string): Document | undefined {
    const slot = this.#slotOf.get(id);
    return slot === undefined ? undefined : this.#docs[slot];
  }

  /**
   * The best `topK` documents for `query` (documents matching no query term are left out), best
   * first; equal scores keep insertion order.
   */
  search(query: string, topK: number, filter?: MetadataFilter): SearchResult[] {
    const node = compileFilter(filter);
    const terms = [...new Set(this.#tokenize(query))];
    if (terms.length === 0 || this.#live === 0 || topK <= 0) return [];
    const n = this.#live;
    const avgLength = this.#totalLength / n || 1;
    const { k1, b } = this.#params;
    if (this.#scratch.length < this.#docs.length) this.#scratch = new Float64Array(Math.max(this.#docs.length, this.#scratch.length * 2));
    const scores = this.#scratch;
    const touched: number[] = [];
    const docs = this.#docs;
    const lengths = this.#lengths;
    const lengthFactor = (k1 * b) / avgLength;
    const base = k1 * (1 - b);
    for (const term of terms) {
      const df = this.#df.get(term);
      const postings = this.#postings.get(term);
      if (df === undefined || postings === undefined) continue;
      const idf = bm25Idf(n, df);
      const idfK = idf * (k1 + 1);
      const { slots, tfs } = postings;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i] as number;
        if (docs[slot] === undefined) continue;
        const tf = tfs[i] as number;
        const add = (idfK * tf) / (tf + base + lengthFactor * (lengths[slot] as number));
        if (scores[slot] === 0) touched.push(slot);
        scores[slot] = (scores[slot] as number) + add;
      }
    }
    const heap = new TopK(topK);
    for (const slot of touched) {
      const score = scores[slot] as number;
      scores[slot] = 0;
      if (score <= 0) continue;
      if (node !== undefined && !matchesFilter((docs[slot] as Document).metadata, node)) continue;
      heap.push(slot, score);
    }
    return heap.sorted().map(({ index, score }) => ({ document: docs[index] as Document, score }));
  }

  /** Rebuilds the slot arrays without deleted documents. */
  #compact(): void {
    const remap = new Int32Array(this.#docs.length).fill(-1);
    let next = 0;
    for (let slot = 0; slot < this.#docs.length; slot++) {
      if (this.#docs[slot] === undefined) continue;
      remap[slot] = next;
      this.#docs[next] = this.#docs[slot];
      this.#lengths[next] = this.#lengths[slot] as number;
      this.#terms[next] = this.#terms[slot];
      next += 1;
    }
    this.#docs.length = this.#lengths.length = this.#terms.length = next;
    for (const [id, slot] of this.#slotOf) this.#slotOf.set(id, remap[slot] as number);
    for (const [term, postings] of this.#postings) {
      const slots: number[] = [];
      const tfs: number[] = [];
      for (let i = 0; i < postings.slots.length; i++) {
        const to = remap[postings.slots[i] as number] as number;
        if (to < 0) continue;
        slots.push(to);
        tfs.push(postings.tfs[i] as number);
      }
      if (slots.length === 0) this.#postings.delete(term);
      else this.#postings.set(term, { slots, tfs });
    }
  }
}
