/**
 * The JavaScript twins of the WebAssembly kernels (dot-kernels-wasm.ts), used when the runtime has
 * no WebAssembly SIMD or when `kernel: 'js'` is asked for. They give bit-identical results: the
 * int8 dot products are exact integers, and {@link dotF32} repeats the wasm kernel's float32
 * arithmetic step by step (every product and sum rounded with Math.fround, in the same order).
 */

/** out[i] = Σ_j query[j] · bytes[i·width + j] for rows 0 … n−1 (exact: the caller keeps |sum| < 2^31). */
export function dotsI8(query: Int16Array, bytes: Int8Array, n: number, width: number, out: Int32Array): void {
  for (let row = 0, base = 0; row < n; row++, base += width) {
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    for (let j = 0; j < width; j += 4) {
      const o = base + j;
      a0 = (a0 + (query[j] as number) * (bytes[o] as number)) | 0;
      a1 = (a1 + (query[j + 1] as number) * (bytes[o + 1] as number)) | 0;
      a2 = (a2 + (query[j + 2] as number) * (bytes[o + 2] as number)) | 0;
      a3 = (a3 + (query[j + 3] as number) * (bytes[o + 3] as number)) | 0;
    }
    out[row] = (a0 + a1 + a2 + a3) | 0;
  }
}

const f = Math.fround;

/**
 * The float32 dot product of `query` and the row at `base` of `floats`, `width` long (a multiple
 * of 16), in the wasm kernel's order: element j into accumulator j mod 16, then
 * lane l = (acc[l] + acc[4+l]) + (acc[8+l] + acc[12+l]), result (l0 + l1) + (l2 + l3).
 */
export function dotF32(query: Float32Array, floats: Float32Array, base: number, width: number): number {
  let c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0, c6 = 0, c7 = 0; // prettier-ignore
  let c8 = 0, c9 = 0, c10 = 0, c11 = 0, c12 = 0, c13 = 0, c14 = 0, c15 = 0; // prettier-ignore
  for (let j = 0; j < width; j += 16) {
    const o = base + j;
    c0 = f(c0 + f((query[j] as number) * (floats[o] as number)));
    c1 = f(c1 + f((query[j + 1] as number) * (floats[o + 1] as number)));
    c2 = f(c2 + f((query[j + 2] as number) * (floats[o + 2] as number)));
    c3 = f(c3 + f((query[j + 3] as number) * (floats[o + 3] as number)));
    c4 = f(c4 + f((query[j + 4] as number) * (floats[o + 4] as number)));
    c5 = f(c5 + f((query[j + 5] as number) * (floats[o + 5] as number)));
    c6 = f(c6 + f((query[j + 6] as number) * (floats[o + 6] as number)));
    c7 = f(c7 + f((query[j + 7] as number) * (floats[o + 7] as number)));
    c8 = f(c8 + f((query[j + 8] as number) * (floats[o + 8] as number)));
    c9 = f(c9 + f((query[j + 9] as number) * (floats[o + 9] as number)));
    c10 = f(c10 + f((query[j + 10] as number) * (floats[o + 10] as number)));
    c11 = f(c11 + f((query[j + 11] as number) * (floats[o + 11] as number)));
    c12 = f(c12 + f((query[j + 12] as number) * (floats[o + 12] as number)));
    c13 = f(c13 + f((query[j + 13] as number) * (floats[o + 13] as number)));
    c14 = f(c14 + f((query[j + 14] as number) * (floats[o + 14] as number)));
    c15 = f(c15 + f((query[j + 15] as number) * (floats[o + 15] as number)));
  }
  const l0 = f(f(c0 + c4) + f(c8 + c12));
  const l1 = f(f(c1 + c5) + f(c9 + c13));
  const l2 = f(f(c2 + c6) + f(c10 + c14));
  const l3 = f(f(c3 + c7) + f(c11 + c15));
  return f(f(l0 + l1) + f(l2 + l3));
}
