import { ConfigurationError } from '../../core/errors/configuration-error.js';
import type { Document, SearchResult } from '../document.js';
import { compileFilter, matchesFilter, type MetadataFilter } from '../filter/metadata-filter.js';
import { TopK } from '../top-k.js';
import { checkQuery, prepareAdd, type VectorStore } from './vector-store.js';

/** Options of {@link InMemoryVectorStore}. */
export interface InMemoryVectorStoreOptions {
  /** Vector length; default the first added embedding's. */
  dimensions?: number;
  /**
   * `'int8'` keeps each vector as 8-bit integers with one scale (a quarter of the memory of
   * float32); scores are then approximate (bench/vectors.ts prints the recall@10). Default 'none'.
   */
  quantization?: 'none' | 'int8';
}

/**
 * Vectors in one contiguous Float32Array (unit-normalised on the way in, so a dot product is the
 * cosine), exact search by scanning them all with a top-k heap, metadata filters evaluated per row.
 * Deleting moves the last row into the hole, so the array stays dense. Nothing is persisted.
 */
export class InMemoryVectorStore implements VectorStore {
  readonly backend = 'memory';
  readonly #int8: boolean;
  #dim: number | undefined;
  #capacity = 0;
  #count = 0;
  #floats = new Float32Array(0);
  #bytes = new Int8Array(0);
  #scales = new Float32Array(0);
  readonly #docs: Document[] = [];
  readonly #slotOf = new Map<string, number>();

  constructor(options: InMemoryVectorStoreOptions = {}) {
    this.#dim = options.dimensions;
    const quantization = options.quantization ?? 'none';
    if (quantization !== 'none' && quantization !== 'int8') throw new ConfigurationError(`quantization must be 'none' or 'int8', got ${String(quantization)}`, { key: 'quantization' });
    this.#int8 = quantization === 'int8';
  }

  /** Dimensions of the stored vectors (undefined while empty and unset). */
  get dimensions(): number | undefined {
    return this.#dim;
  }

   
  async addDocuments(documents: readonly Document[], embeddings: readonly (readonly number[])[]): Promise<string[]> {
    const { ids, dimensions } = prepareAdd(this.backend, documents, embeddings, this.#dim);
    if (dimensions === undefined) return ids;
    this.#dim = dimensions;
    this.#reserve(this.#count + ids.length);
    ids.forEach((id, i) => {
      let slot = this.#slotOf.get(id);
      if (slot === undefined) {
        slot = this.#count++;
        this.#slotOf.set(id, slot);
      }
      this.#docs[slot] = { ...(documents[i] as Document), id };
      this.#write(slot, embeddings[i] as readonly number[]);
    });
    return ids;
  }

   
  async search(queryEmbedding: readonly number[], topK: number, filter?: MetadataFilter): Promise<SearchResult[]> {
    const node = compileFilter(filter);
    checkQuery(this.backend, queryEmbedding, this.#dim);
    const dim = this.#dim;
    if (dim === undefined || this.#count === 0 || topK <= 0) return [];
    const query = new Float32Array(dim);
    let norm = 0;
    for (let j = 0; j < dim; j++) norm += (queryEmbedding[j] as number) ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let j = 0; j < dim; j++) query[j] = (queryEmbedding[j] as number) / norm;
    const heap = new TopK(topK);
    const n = this.#count;
    if (this.#int8) {
      const bytes = this.#bytes;
      const scales = this.#scales;
      for (let slot = 0; slot < n; slot++) {
        if (node !== undefined && !matchesFilter((this.#docs[slot] as Document).metadata, node)) continue;
        let dot = 0;
        const base = slot * dim;
        for (let j = 0; j < dim; j++) dot += (query[j] as number) * (bytes[base + j] as number);
        heap.push(slot, dot * (scales[slot] as number));
      }
    } else {
      const floats = this.#floats;
      for (let slot = 0; slot < n; slot++) {
        if (node !== undefined && !matchesFilter((this.#docs[slot] as Document).metadata, node)) continue;
        const base = slot * dim;
        let d0 = 0;
        let d1 = 0;
        let d2 = 0;
        let d3 = 0;
        let j = 0;
        for (; j + 3 < dim; j += 4) {
          d0 += (query[j] as number) * (floats[base + j] as number);
          d1 += (query[j + 1] as number) * (floats[base + j + 1] as number);
          d2 += (query[j + 2] as number) * (floats[base + j + 2] as number);
          d3 += (query[j + 3] as number) * (floats[base + j + 3] as number);
        }
        for (; j < dim; j++) d0 += (query[j] as number) * (floats[base + j] as number);
        heap.push(slot, d0 + d1 + d2 + d3);
      }
    }
    return heap.sorted().map(({ index, score }) => ({ document: this.#docs[index] as Document, score }));
  }

  delete(ids: readonly string[]): Promise<void> {
    const dim = this.#dim ?? 0;
    for (const id of ids) {
      const slot = this.#slotOf.get(id);
      if (slot === undefined) continue;
      this.#slotOf.delete(id);
      const last = --this.#count;
      if (slot !== last) {
        const moved = this.#docs[last] as Document;
        this.#docs[slot] = moved;
        this.#slotOf.set(moved.id as string, slot);
        if (this.#int8) {
          this.#bytes.copyWithin(slot * dim, last * dim, (last + 1) * dim);
          this.#scales[slot] = this.#scales[last] as number;
        } else this.#floats.copyWithin(slot * dim, last * dim, (last + 1) * dim);
      }
      this.#docs.length = this.#count;
    }
    return Promise.resolve();
  }

  clear(): Promise<void> {
    this.#count = 0;
    this.#docs.length = 0;
    this.#slotOf.clear();
    return Promise.resolve();
  }

  count(): Promise<number> {
    return Promise.resolve(this.#count);
  }

  list(): Promise<Document[]> {
    return Promise.resolve([...this.#docs].sort((a, b) => ((a.id as string) < (b.id as string) ? -1 : (a.id as string) > (b.id as string) ? 1 : 0)));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  #reserve(rows: number): void {
    if (rows <= this.#capacity) return;
    const dim = this.#dim as number;
    const capacity = Math.max(rows, this.#capacity * 2, 64);
    if (this.#int8) {
      const bytes = new Int8Array(capacity * dim);
      bytes.set(this.#bytes.subarray(0, this.#count * dim));
      this.#bytes = bytes;
      const scales = new Float32Array(capacity);
      scales.set(this.#scales.subarray(0, this.#count));
      this.#scales = scales;
    } else {
      const floats = new Float32Array(capacity * dim);
      floats.set(this.#floats.subarray(0, this.#count * dim));
      this.#floats = floats;
    }
    this.#capacity = capacity;
  }

  #write(slot: number, embedding: readonly number[]): void {
    const dim = this.#dim as number;
    let norm = 0;
    for (const value of embedding) norm += value * value;
    norm = Math.sqrt(norm) || 1;
    const base = slot * dim;
    if (this.#int8) {
      let max = 0;
      for (const value of embedding) max = Math.max(max, Math.abs(value / norm));
      const scale = max === 0 ? 1 : max / 127;
      for (let j = 0; j < dim; j++) this.#bytes[base + j] = Math.round((embedding[j] as number) / norm / scale);
      this.#scales[slot] = scale;
    } else {
      for (let j = 0; j < dim; j++) this.#floats[base + j] = (embedding[j] as number) / norm;
    }
  }
}
