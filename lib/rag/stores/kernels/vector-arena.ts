import { VectorStoreError } from '../../../core/errors/vector-store-error.js';
import { dotF32, dotsI8 } from './dot-kernels-js.js';
import { kernelModule, wasmApi, type WasmDotExports } from './dot-kernels-wasm.js';

/** Which dot-product kernels run: WebAssembly SIMD when available (`auto`), or one of them. */
export type KernelChoice = 'auto' | 'wasm' | 'js';

const PAGE = 65_536;
/** WebAssembly (32-bit) memories stop at 4 GiB. */
const MAX_WASM_BYTES = 65_536 * PAGE;
const align16 = (bytes: number): number => Math.ceil(bytes / 16) * 16;

/**
 * The vectors of an in-memory store and the scratch space of one search, in ONE buffer laid out for
 * the kernels: the float32 query, the int16 query, an int32 score per row, the float32 rows (when
 * kept) and the int8 rows. Rows are `width` long: the dimensions padded with zeros to a multiple
 * of 32, which leaves every dot product unchanged. The buffer is a WebAssembly memory when the wasm
 * kernels run (they read it in place), else a plain ArrayBuffer; both give identical results.
 */
export class VectorArena {
  /** Padded row length (a multiple of 32). */
  readonly width: number;
  /** Rows the buffer holds. */
  readonly capacity: number;
  /** The kernels in use. */
  readonly kernel: 'wasm' | 'js';
  readonly queryF32: Float32Array;
  readonly queryI16: Int16Array;
  /** Integer dot products written by {@link dotsI8}. */
  readonly dots: Int32Array;
  /** Float32 rows (empty when the store keeps only int8). */
  readonly floats: Float32Array;
  readonly bytes: Int8Array;
  readonly #keepFloats: boolean;
  readonly #offsets: { queryI16: number; dots: number; floats: number; bytes: number };
  readonly #wasm: WasmDotExports | undefined;

  /** The most rows of `dimensions` that fit one WebAssembly memory. */
  static maxWasmRows(dimensions: number, keepFloats: boolean): number {
    const width = Math.ceil(dimensions / 32) * 32;
    return Math.floor((MAX_WASM_BYTES - width * 6 - 64) / (4 + width * (keepFloats ? 5 : 1)));
  }

  constructor(dimensions: number, capacity: number, keepFloats: boolean, choice: KernelChoice) {
    const width = Math.ceil(dimensions / 32) * 32;
    this.width = width;
    this.capacity = capacity;
    this.#keepFloats = keepFloats;
    const queryI16 = width * 4;
    const dots = align16(queryI16 + width * 2);
    const floats = align16(dots + capacity * 4);
    const bytes = floats + (keepFloats ? capacity * width * 4 : 0);
    const total = bytes + capacity * width;
    this.#offsets = { queryI16, dots, floats, bytes };
    const module = choice === 'js' ? undefined : kernelModule();
    const api = wasmApi();
    let buffer: ArrayBuffer | undefined;
    if (module !== undefined && api !== undefined && total <= MAX_WASM_BYTES) {
      try {
        const memory = new api.Memory({ initial: Math.ceil(total / PAGE) });
        this.#wasm = new api.Instance(module, { env: { memory } }).exports as unknown as WasmDotExports;
        buffer = memory.buffer;
      } catch (error) {
        if (!(error instanceof RangeError)) throw error; // out of memory for a wasm memory: the JavaScript kernels take over
      }
    }
    if (choice === 'wasm' && buffer === undefined) {
      throw new VectorStoreError(
        module === undefined ? "kernel 'wasm' needs WebAssembly SIMD, which this runtime lacks" : `kernel 'wasm' cannot hold ${capacity} rows of ${dimensions} dimensions in one WebAssembly memory (4 GiB at most)`,
        { store: 'memory' },
      );
    }
    this.kernel = buffer === undefined ? 'js' : 'wasm';
    buffer ??= new ArrayBuffer(total);
    this.queryF32 = new Float32Array(buffer, 0, width);
    this.queryI16 = new Int16Array(buffer, queryI16, width);
    this.dots = new Int32Array(buffer, dots, capacity);
    this.floats = new Float32Array(buffer, floats, keepFloats ? capacity * width : 0);
    this.bytes = new Int8Array(buffer, bytes, capacity * width);
  }

  /** A bigger arena holding the first `rows` rows of this one (same kernels unless `choice` says otherwise). */
  grown(capacity: number, rows: number, choice: KernelChoice): VectorArena {
    const next = new VectorArena(this.width, capacity, this.#keepFloats, choice);
    next.floats.set(this.floats.subarray(0, rows * this.width));
    next.bytes.set(this.bytes.subarray(0, rows * this.width));
    return next;
  }

  /** Copies row `from` over row `to` (float32 and int8). */
  moveRow(from: number, to: number): void {
    const w = this.width;
    if (this.#keepFloats) this.floats.copyWithin(to * w, from * w, (from + 1) * w);
    this.bytes.copyWithin(to * w, from * w, (from + 1) * w);
  }

  /** dots[i] = exact integer dot product of queryI16 and int8 row i, for rows 0 … n−1. */
  dotsI8(n: number): void {
    if (this.#wasm) this.#wasm.dots_i8(this.#offsets.queryI16, this.#offsets.bytes, n, this.width, this.#offsets.dots);
    else dotsI8(this.queryI16, this.bytes, n, this.width, this.dots);
  }

  /** The float32 dot product of queryF32 and float row `row` (fixed arithmetic, see dot-kernels-wasm.ts). */
  dotF32(row: number): number {
    if (this.#wasm) return this.#wasm.dot_f32(0, this.#offsets.floats + row * this.width * 4, this.width * 4);
    return dotF32(this.queryF32, this.floats, row * this.width, this.width);
  }
}
