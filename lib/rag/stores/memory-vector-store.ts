import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { VectorStoreError } from '../../core/errors/vector-store-error.js';
import type { Document, SearchResult } from '../document.js';
import { compileFilter, matchesFilter, type FilterNode, type MetadataFilter } from '../filter/metadata-filter.js';
import { TopK } from '../top-k.js';
import { VectorArena, type KernelChoice } from './kernels/vector-arena.js';
import { checkQuery, prepareAdd, type VectorStore } from './vector-store.js';

/** Options of {@link InMemoryVectorStore}. */
export interface InMemoryVectorStoreOptions {
  /** Vector length; default the first added embedding's. */
  dimensions?: number;
  /**
   * `'int8'` keeps each vector only as 8-bit integers with one scale (about a quarter of the
   * memory); scores are then approximate (bench/vectors.ts prints the recall@10). Default `'none'`:
   * float32 vectors, exact scores.
   */
  quantization?: 'none' | 'int8';
  /**
   * The dot-product kernels: `'auto'` (default) runs the WebAssembly SIMD ones when the runtime has
   * them and the vectors fit one WebAssembly memory (4 GiB), else the JavaScript ones; `'wasm'`
   * requires them (a VectorStoreError otherwise); `'js'` always runs JavaScript. All give the same
   * results, bit for bit.
   */
  kernel?: 'auto' | 'wasm' | 'js';
}

/** Largest dimension count: keeps every int8 × int16 dot product below 2^31. */
const MAX_DIMENSIONS = 2 ** 24;
/** Unit roundoff of float32. */
const F32_UNIT = 2 ** -24;
/** Absolute slack for float64 rounding in the bounds (scores are at most ~1 in magnitude). */
const BOUND_SLACK = 1e-12;

/**
 * Vectors in one contiguous buffer (unit-normalised on the way in, so a dot product is the
 * cosine), exact top-k search over all of them, metadata filters per row. Deleting moves the last
 * row into the hole, so the rows stay dense. Nothing is persisted.
 *
 * Exact search in two steps. Each float32 row also has an int8 copy with one scale, and the error
 * of that copy (the norm of the residual) is stored beside it. A SIMD kernel computes the integer
 * dot product of every int8 row with an int16 copy of the query (a quarter of the bytes of a float
 * scan); from it and the errors (Cauchy–Schwarz), each row's float32 score lies within a known
 * interval. The k-th largest lower bound is a threshold; only the rows whose upper bound reaches it
 * are scored in float32 (usually a few dozen), and they are the only rows that can be in the top k.
 * The result is identical to scoring every row in float32: same documents, order and scores.
 * Equal scores rank by storage slot (insertion order until a delete moves the last row).
 * Filters are evaluated only for rows that could enter the top k.
 */
export class InMemoryVectorStore implements VectorStore {
  readonly backend = 'memory';
  readonly #int8: boolean;
  readonly #kernel: KernelChoice;
  #dim: number | undefined;
  #count = 0;
  #arena: VectorArena | undefined;
  /** Per row: the int8 scale (value = scale × byte). */
  #scales = new Float64Array(0);
  /** Per row (exact mode): ‖row − int8 row‖ plus the float32 kernel's rounding bound, per unit query norm. */
  #slack = new Float64Array(0);
  /** Per row (exact mode): ‖int8 row‖. */
  #hatNorms = new Float64Array(0);
  /** Scratch of a write: one row's float32 values. */
  #rowScratch = new Float32Array(0);
  /** Scratch of a search: the rows that may be in the top k. */
  #candidates = new Int32Array(0);
  readonly #docs: Document[] = [];
  readonly #slotOf = new Map<string, number>();

  constructor(options: InMemoryVectorStoreOptions = {}) {
    this.#dim = options.dimensions;
    const quantization = options.quantization ?? 'none';
    if (quantization !== 'none' && quantization !== 'int8') throw new ConfigurationError(`quantization must be 'none' or 'int8', got ${String(quantization)}`, { key: 'quantization' });
    this.#int8 = quantization === 'int8';
    const kernel = options.kernel ?? 'auto';
    if (kernel !== 'auto' && kernel !== 'wasm' && kernel !== 'js') throw new ConfigurationError(`kernel must be 'auto', 'wasm' or 'js', got ${String(kernel)}`, { key: 'kernel' });
    this.#kernel = kernel;
    if (this.#dim !== undefined) this.#checkDimensions(this.#dim);
  }

  /** Dimensions of the stored vectors (undefined while empty and unset). */
  get dimensions(): number | undefined {
    return this.#dim;
  }

  /** The kernels searches run on: `'wasm'` (SIMD) or `'js'`; undefined before the first vector. */
  get kernel(): 'wasm' | 'js' | undefined {
    return this.#arena?.kernel;
  }

  async addDocuments(documents: readonly Document[], embeddings: readonly (readonly number[])[]): Promise<string[]> {
    const { ids, dimensions } = prepareAdd(this.backend, documents, embeddings, this.#dim);
    if (dimensions === undefined) return ids;
    if (this.#dim === undefined) this.#checkDimensions(dimensions);
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
    const arena = this.#arena;
    const n = this.#count;
    if (arena === undefined || n === 0 || !(topK > 0)) return [];
    const k = Math.min(Math.floor(topK), n);
    if (k === 0) return [];
    const query = this.#prepareQuery(arena, queryEmbedding);
    arena.dotsI8(n);
    const passes = this.#filterCache(node, n);
    const top = this.#int8 ? this.#approximateTopK(arena, n, k, query.scale, passes) : this.#exactTopK(arena, n, k, query, passes);
    return top.sorted().map(({ index, score }) => ({ document: this.#docs[index] as Document, score }));
  }

  delete(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      const slot = this.#slotOf.get(id);
      if (slot === undefined) continue;
      this.#slotOf.delete(id);
      const last = --this.#count;
      if (slot !== last) {
        const moved = this.#docs[last] as Document;
        this.#docs[slot] = moved;
        this.#slotOf.set(moved.id as string, slot);
        this.#arena?.moveRow(last, slot);
        this.#scales[slot] = this.#scales[last] as number;
        this.#slack[slot] = this.#slack[last] as number;
        this.#hatNorms[slot] = this.#hatNorms[last] as number;
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

  #checkDimensions(dim: number): void {
    if (!Number.isInteger(dim) || dim < 1 || dim > MAX_DIMENSIONS) throw new VectorStoreError(`dimensions must be an integer from 1 to ${MAX_DIMENSIONS}, got ${dim}`, { store: this.backend });
  }

  #reserve(rows: number): void {
    const arena = this.#arena;
    if (arena !== undefined && rows <= arena.capacity) return;
    let capacity = Math.max(rows, (arena?.capacity ?? 0) * 2, 64);
    // Doubling must not push a store that fits one WebAssembly memory out of it.
    if (this.#kernel !== 'js') capacity = Math.max(rows, Math.min(capacity, VectorArena.maxWasmRows(this.#dim as number, !this.#int8)));
    this.#arena = arena ? arena.grown(capacity, this.#count, this.#kernel) : new VectorArena(this.#dim as number, capacity, !this.#int8, this.#kernel);
    const grow = (old: Float64Array): Float64Array<ArrayBuffer> => {
      const next = new Float64Array(capacity);
      next.set(old.subarray(0, this.#count));
      return next;
    };
    this.#scales = grow(this.#scales);
    if (!this.#int8) {
      this.#candidates = new Int32Array(capacity);
      this.#slack = grow(this.#slack);
      this.#hatNorms = grow(this.#hatNorms);
    }
  }

  /** Writes a unit-normalised float32 row (exact mode), its int8 copy, scale and error bound. */
  #write(slot: number, embedding: readonly number[]): void {
    const arena = this.#arena as VectorArena;
    const dim = this.#dim as number;
    const width = arena.width;
    const base = slot * width;
    let norm = 0;
    for (let j = 0; j < dim; j++) norm += (embedding[j] as number) ** 2;
    norm = Math.sqrt(norm) || 1;
    // The float32 values first, then everything else from them (so the bounds hold for what is stored).
    const values = (this.#rowScratch = this.#rowScratch.length === width ? this.#rowScratch : new Float32Array(width));
    let max = 0;
    for (let j = 0; j < dim; j++) {
      const value = (values[j] = (embedding[j] as number) / norm);
      if (value > max) max = value;
      else if (-value > max) max = -value;
    }
    const scale = max === 0 ? 1 : max / 127;
    const bytes = arena.bytes;
    let residual = 0;
    let hat = 0;
    let rowNorm = 0;
    for (let j = 0; j < dim; j++) {
      const value = values[j] as number;
      let byte = Math.round(value / scale);
      if (byte > 127) byte = 127;
      else if (byte < -127) byte = -127;
      bytes[base + j] = byte;
      const rest = value - scale * byte;
      residual += rest * rest;
      hat += byte * byte;
      rowNorm += value * value;
    }
    bytes.fill(0, base + dim, base + width);
    this.#scales[slot] = scale;
    if (this.#int8) return;
    arena.floats.set(values, base);
    // |s − q̂·r̂| ≤ ‖q‖·‖r − r̂‖ + ‖q − q̂‖·‖r̂‖ + the float32 kernel's error (≤ (width+8)·u·‖q‖·‖r‖, far above
    // the (width/16 + 5)·u of its longest chain of roundings); this row's part per unit ‖q‖:
    this.#slack[slot] = Math.sqrt(residual) * (1 + 1e-9) + (width + 8) * F32_UNIT * Math.sqrt(rowNorm) * 1.01;
    this.#hatNorms[slot] = scale * Math.sqrt(hat);
  }

  /** Writes the unit-normalised float32 query and its int16 copy into the arena; returns their norms and scale. */
  #prepareQuery(arena: VectorArena, embedding: readonly number[]): { scale: number; norm: number; error: number } {
    const dim = this.#dim as number;
    const width = arena.width;
    const floats = arena.queryF32;
    let norm = 0;
    for (let j = 0; j < dim; j++) norm += (embedding[j] as number) ** 2;
    norm = Math.sqrt(norm) || 1;
    let max = 0;
    for (let j = 0; j < width; j++) {
      floats[j] = j < dim ? (embedding[j] as number) / norm : 0;
      max = Math.max(max, Math.abs(floats[j] as number));
    }
    // int16 steps, few enough that 127 × step × dim < 2^31 (no overflow in the integer dot products).
    const steps = Math.max(1, Math.min(32_767, Math.floor((2 ** 31 - 1) / (127 * dim))));
    const scale = max === 0 ? 1 : max / steps;
    const ints = arena.queryI16;
    let qNorm = 0;
    let error = 0;
    for (let j = 0; j < width; j++) {
      const value = floats[j] as number;
      const int = Math.max(-steps, Math.min(steps, Math.round(value / scale)));
      ints[j] = int;
      qNorm += value * value;
      error += (value - scale * int) ** 2;
    }
    return { scale, norm: Math.sqrt(qNorm), error: Math.sqrt(error) * (1 + 1e-9) };
  }

  /** A per-search memo of the filter (0 unknown, 1 passes, 2 fails), or undefined without a filter. */
  #filterCache(node: FilterNode | undefined, n: number): ((slot: number) => boolean) | undefined {
    if (node === undefined) return undefined;
    const state = new Uint8Array(n);
    const docs = this.#docs;
    return (slot) => {
      const known = state[slot] as number;
      if (known !== 0) return known === 1;
      const ok = matchesFilter((docs[slot] as Document).metadata, node);
      state[slot] = ok ? 1 : 2;
      return ok;
    };
  }

  /** int8 mode: the top k by the int8 scores themselves. */
  #approximateTopK(arena: VectorArena, n: number, k: number, queryScale: number, passes: ((slot: number) => boolean) | undefined): TopK {
    const dots = arena.dots;
    const scales = this.#scales;
    const top = new TopK(k);
    for (let slot = 0; slot < n; slot++) {
      const score = queryScale * (scales[slot] as number) * (dots[slot] as number);
      if (score > top.threshold && (passes === undefined || passes(slot))) top.push(slot, score);
    }
    return top;
  }

  /** Exact mode: bounds from the int8 scores, then float32 scores for the rows that can make the top k. */
  #exactTopK(arena: VectorArena, n: number, k: number, query: { scale: number; norm: number; error: number }, passes: ((slot: number) => boolean) | undefined): TopK {
    const dots = arena.dots;
    const scales = this.#scales;
    const slack = this.#slack;
    const hats = this.#hatNorms;
    const { scale: qScale, norm: qNorm, error: qError } = query;
    // Pass 1: the k-th largest lower bound among the rows that pass the filter (the floor), and the
    // rows whose upper bound reaches the floor as known so far (it only rises, so no row is missed).
    const lows = new TopK(k);
    const candidates = this.#candidates;
    let m = 0;
    for (let slot = 0; slot < n; slot++) {
      const approx = qScale * (scales[slot] as number) * (dots[slot] as number);
      const bound = qNorm * (slack[slot] as number) + qError * (hats[slot] as number) + BOUND_SLACK;
      if (approx + bound < lows.threshold || (passes !== undefined && !passes(slot))) continue;
      candidates[m++] = slot;
      if (approx - bound > lows.threshold) lows.push(slot, approx - bound);
    }
    const floor = lows.threshold; // −Infinity when fewer than k rows pass
    // Pass 2: float32 scores of the candidates whose upper bound reaches the floor; every other row
    // scores below k rows that pass, so it cannot be in the top k.
    const top = new TopK(k);
    for (let i = 0; i < m; i++) {
      const slot = candidates[i] as number;
      const high = qScale * (scales[slot] as number) * (dots[slot] as number) + (qNorm * (slack[slot] as number) + qError * (hats[slot] as number) + BOUND_SLACK);
      if (high >= floor && high >= top.threshold) top.push(slot, arena.dotF32(slot));
    }
    return top;
  }
}
