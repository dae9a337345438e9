import { assembleModule, type WasmFunction } from './wasm-assembler.js';

/**
 * The WebAssembly SIMD (128-bit) kernels of the in-memory vector store, in flat WAT syntax,
 * assembled at run time by wasm-assembler.ts. dot-kernels-js.ts holds their JavaScript twins,
 * which give bit-identical results (tested).
 *
 * `dots_i8(q, rows, n, width, out)`: for each of `n` rows of `width` int8 values (width a multiple
 * of 32) starting at byte `rows`, the exact integer dot product with the int16 query at byte `q`,
 * stored as an i32 at `out` + 4·row. The caller keeps |sum| < 2^31.
 *
 * `dot_f32(q, row, bytes)`: the float32 dot product of the query at byte `q` and one row at byte
 * `row`, both `bytes` long (a multiple of 64). Its arithmetic is fixed: element j is multiplied and
 * added into accumulator j mod 16 (in float32, no fused multiply-add); then lane l of the four
 * vector accumulators A0..A3 is (A0+A1)+(A2+A3), and the result (l0+l1)+(l2+l3).
 */
const DOTS_I8: WasmFunction = {
  name: 'dots_i8',
  params: [['q', 'i32'], ['rows', 'i32'], ['n', 'i32'], ['width', 'i32'], ['out', 'i32']],
  locals: [['j', 'i32'], ['r', 'v128'], ['a0', 'v128'], ['a1', 'v128'], ['a2', 'v128'], ['a3', 'v128']],
  body: `
    block
      local.get n
      i32.eqz
      br_if 0
      loop                          ;; one row per iteration
        v128.const i32x4 0 0 0 0
        local.set a0
        v128.const i32x4 0 0 0 0
        local.set a1
        v128.const i32x4 0 0 0 0
        local.set a2
        v128.const i32x4 0 0 0 0
        local.set a3
        i32.const 0
        local.set j
        loop                        ;; 32 dimensions per iteration
          local.get rows            ;; r = row bytes j..j+15
          local.get j
          i32.add
          v128.load offset=0
          local.set r
          local.get a0              ;; a0 += dot(low 8 of r, q[j..j+7])
          local.get r
          i16x8.extend_low_i8x16_s
          local.get q
          local.get j
          i32.add
          local.get j
          i32.add
          v128.load offset=0
          i32x4.dot_i16x8_s
          i32x4.add
          local.set a0
          local.get a1              ;; a1 += dot(high 8 of r, q[j+8..j+15])
          local.get r
          i16x8.extend_high_i8x16_s
          local.get q
          local.get j
          i32.add
          local.get j
          i32.add
          v128.load offset=16
          i32x4.dot_i16x8_s
          i32x4.add
          local.set a1
          local.get rows            ;; r = row bytes j+16..j+31
          local.get j
          i32.add
          v128.load offset=16
          local.set r
          local.get a2
          local.get r
          i16x8.extend_low_i8x16_s
          local.get q
          local.get j
          i32.add
          local.get j
          i32.add
          v128.load offset=32
          i32x4.dot_i16x8_s
          i32x4.add
          local.set a2
          local.get a3
          local.get r
          i16x8.extend_high_i8x16_s
          local.get q
          local.get j
          i32.add
          local.get j
          i32.add
          v128.load offset=48
          i32x4.dot_i16x8_s
          i32x4.add
          local.set a3
          local.get j
          i32.const 32
          i32.add
          local.tee j
          local.get width
          i32.lt_u
          br_if 0
        end
        local.get out               ;; out[row] = sum of the 16 lanes
        local.get a0
        local.get a1
        i32x4.add
        local.get a2
        local.get a3
        i32x4.add
        i32x4.add
        local.set r
        local.get r
        i32x4.extract_lane 0
        local.get r
        i32x4.extract_lane 1
        i32.add
        local.get r
        i32x4.extract_lane 2
        i32.add
        local.get r
        i32x4.extract_lane 3
        i32.add
        i32.store offset=0
        local.get out
        i32.const 4
        i32.add
        local.set out
        local.get rows
        local.get width
        i32.add
        local.set rows
        local.get n
        i32.const 1
        i32.sub
        local.tee n
        br_if 0
      end
    end`,
};

const DOT_F32: WasmFunction = {
  name: 'dot_f32',
  params: [['q', 'i32'], ['row', 'i32'], ['bytes', 'i32']],
  locals: [['j', 'i32'], ['s', 'v128'], ['a0', 'v128'], ['a1', 'v128'], ['a2', 'v128'], ['a3', 'v128']],
  result: 'f32',
  body: `
    v128.const i32x4 0 0 0 0
    local.set a0
    v128.const i32x4 0 0 0 0
    local.set a1
    v128.const i32x4 0 0 0 0
    local.set a2
    v128.const i32x4 0 0 0 0
    local.set a3
    i32.const 0
    local.set j
    loop                            ;; 16 dimensions (64 bytes) per iteration
      local.get a0
      local.get q
      local.get j
      i32.add
      v128.load offset=0
      local.get row
      local.get j
      i32.add
      v128.load offset=0
      f32x4.mul
      f32x4.add
      local.set a0
      local.get a1
      local.get q
      local.get j
      i32.add
      v128.load offset=16
      local.get row
      local.get j
      i32.add
      v128.load offset=16
      f32x4.mul
      f32x4.add
      local.set a1
      local.get a2
      local.get q
      local.get j
      i32.add
      v128.load offset=32
      local.get row
      local.get j
      i32.add
      v128.load offset=32
      f32x4.mul
      f32x4.add
      local.set a2
      local.get a3
      local.get q
      local.get j
      i32.add
      v128.load offset=48
      local.get row
      local.get j
      i32.add
      v128.load offset=48
      f32x4.mul
      f32x4.add
      local.set a3
      local.get j
      i32.const 64
      i32.add
      local.tee j
      local.get bytes
      i32.lt_u
      br_if 0
    end
    local.get a0                    ;; s = (a0 + a1) + (a2 + a3)
    local.get a1
    f32x4.add
    local.get a2
    local.get a3
    f32x4.add
    f32x4.add
    local.set s
    local.get s                     ;; (s0 + s1) + (s2 + s3)
    f32x4.extract_lane 0
    local.get s
    f32x4.extract_lane 1
    f32.add
    local.get s
    f32x4.extract_lane 2
    local.get s
    f32x4.extract_lane 3
    f32.add
    f32.add`,
};

/** The exports of an instantiated kernel module. */
export interface WasmDotExports {
  dots_i8(q: number, rows: number, n: number, width: number, out: number): void;
  dot_f32(q: number, row: number, bytes: number): number;
}

/** The parts of the WebAssembly JS API used here (not in the ES2023 lib typings). */
export interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
}

/** The WebAssembly API of this runtime, if any. */
export function wasmApi(): WasmApi | undefined {
  return (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
}

/** The kernel module's bytes. */
export function kernelModuleBytes(): Uint8Array {
  return assembleModule([DOTS_I8, DOT_F32]);
}

let compiled: object | null | undefined;

/** The compiled kernel module, or undefined when this runtime has no WebAssembly SIMD. */
export function kernelModule(): object | undefined {
  if (compiled === undefined) {
    const api = wasmApi();
    try {
      compiled = api ? new api.Module(kernelModuleBytes()) : null;
    } catch {
      compiled = null; // no SIMD support (or WebAssembly disabled): the JavaScript kernels are used
    }
  }
  return compiled ?? undefined;
}
