import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dotF32, dotsI8 } from '../../../../../lib/rag/stores/kernels/dot-kernels-js.js';
import { kernelModule, kernelModuleBytes } from '../../../../../lib/rag/stores/kernels/dot-kernels-wasm.js';
import { VectorArena } from '../../../../../lib/rag/stores/kernels/vector-arena.js';
import { assembleModule, sleb128, uleb128 } from '../../../../../lib/rag/stores/kernels/wasm-assembler.js';

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Two arenas (wasm and JavaScript kernels) holding the same random rows and query. */
function twinArenas(dim: number, rows: number, seed: number): { wasm: VectorArena; js: VectorArena } {
  const wasm = new VectorArena(dim, rows, true, 'wasm');
  const js = new VectorArena(dim, rows, true, 'js');
  for (const arena of [wasm, js]) {
    const r = seeded(seed);
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < dim; j++) {
        arena.floats[i * arena.width + j] = r() * 2 - 1;
        arena.bytes[i * arena.width + j] = Math.round(r() * 254) - 127;
      }
    }
    const q = seeded(seed + 1);
    for (let j = 0; j < dim; j++) {
      arena.queryF32[j] = q() * 2 - 1;
      arena.queryI16[j] = Math.round(q() * 65_534) - 32_767;
    }
  }
  return { wasm, js };
}

describe('vector kernels', () => {
  test('this runtime has WebAssembly SIMD, so the wasm kernels are what the tests exercise', () => {
    assert.ok(kernelModule(), 'the kernel module compiles');
    assert.equal(new VectorArena(8, 4, true, 'auto').kernel, 'wasm');
    assert.equal(new VectorArena(8, 4, true, 'js').kernel, 'js');
  });

  test('LEB128 encodings', () => {
    assert.deepEqual(uleb128(0), [0]);
    assert.deepEqual(uleb128(127), [0x7f]);
    assert.deepEqual(uleb128(128), [0x80, 0x01]);
    assert.deepEqual(uleb128(624_485), [0xe5, 0x8e, 0x26]);
    assert.deepEqual(sleb128(-1), [0x7f]);
    assert.deepEqual(sleb128(63), [0x3f]);
    assert.deepEqual(sleb128(64), [0xc0, 0x00]);
    assert.deepEqual(sleb128(-123_456), [0xc0, 0xbb, 0x78]);
  });

  test('the assembler refuses what it does not know', () => {
    const fn = (body: string) => assembleModule([{ name: 'f', params: [['a', 'i32']], locals: [], body }]);
    assert.throws(() => fn('i64.add'), /unknown instruction "i64.add"/);
    assert.throws(() => fn('local.get b'), /unknown local/);
    assert.throws(() => fn('v128.const i32x4 1 0 0 0'), /only "v128.const i32x4 0 0 0 0"/);
    assert.throws(() => fn('br_if x'), /bad immediate/);
  });

  test('the module bytes are stable and valid', () => {
    const bytes = kernelModuleBytes();
    assert.deepEqual([...bytes.subarray(0, 8)], [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    assert.deepEqual(kernelModuleBytes(), bytes);
  });

  for (const dim of [1, 31, 32, 33, 100, 384]) {
    test(`int8 × int16 dot products: wasm = JavaScript = the plain sum (${dim} dimensions)`, () => {
      const rows = 37;
      const { wasm, js } = twinArenas(dim, rows, dim);
      wasm.dotsI8(rows);
      js.dotsI8(rows);
      for (let i = 0; i < rows; i++) {
        let expected = 0;
        for (let j = 0; j < dim; j++) expected += (js.queryI16[j] as number) * (js.bytes[i * js.width + j] as number);
        assert.equal(wasm.dots[i], expected, `row ${i} (wasm)`);
        assert.equal(js.dots[i], expected, `row ${i} (js)`);
      }
    });

    test(`float32 dot products: wasm and JavaScript agree bit for bit and with float64 to 1e-5 (${dim} dimensions)`, () => {
      const rows = 37;
      const { wasm, js } = twinArenas(dim, rows, dim * 7);
      for (let i = 0; i < rows; i++) {
        let reference = 0;
        for (let j = 0; j < dim; j++) reference += (js.queryF32[j] as number) * (js.floats[i * js.width + j] as number);
        const a = wasm.dotF32(i);
        const b = js.dotF32(i);
        assert.ok(Object.is(a, b), `row ${i}: wasm ${a} vs js ${b}`);
        assert.ok(Math.abs(a - reference) <= 1e-5 * Math.max(1, Math.sqrt(dim)), `row ${i}: ${a} vs ${reference}`);
      }
    });
  }

  test('dotsI8 does only the first n rows, and the JavaScript twin of dot_f32 follows its fixed order', () => {
    const { wasm, js } = twinArenas(40, 10, 3);
    wasm.dots.fill(-5);
    js.dots.fill(-5);
    wasm.dotsI8(4);
    js.dotsI8(4);
    assert.deepEqual([...wasm.dots.subarray(4)], new Array(6).fill(-5));
    assert.deepEqual([...js.dots.subarray(4)], new Array(6).fill(-5));
    // Sums whose float32 value depends on the order (2^24 + 1 rounds to 2^24): element j goes to
    // accumulator j mod 16, lanes (c[l] + c[4+l]) + (c[8+l] + c[12+l]), then (l0 + l1) + (l2 + l3).
    const cases: [Record<number, number>, number][] = [
      [{ 0: 2 ** 24, 1: 1, 2: -(2 ** 24) }, 0], // (2^24 + 1) + (−2^24 + 0); float64 gives 1
      [{ 0: 2 ** 24, 4: -(2 ** 24), 1: 1 }, 1], // (0 + 1) + 0; a sequential float32 sum gives 0
      [{ 0: 2 ** 24, 16: 1, 32: -(2 ** 24) }, 0], // one accumulator over three 16-wide steps
    ];
    for (const [values, expected] of cases) {
      for (const arena of [new VectorArena(48, 1, true, 'wasm'), new VectorArena(48, 1, true, 'js')]) {
        arena.queryF32.fill(0);
        arena.floats.fill(0);
        for (const [j, value] of Object.entries(values)) {
          arena.queryF32[Number(j)] = 1;
          arena.floats[Number(j)] = value;
        }
        assert.equal(arena.dotF32(0), expected, `${arena.kernel} ${JSON.stringify(values)}`);
      }
    }
    assert.equal(dotF32(new Float32Array([1, 1, 1, ...new Array<number>(13).fill(0)]), new Float32Array([2 ** 24, 1, -(2 ** 24), ...new Array<number>(13).fill(0)]), 0, 16), 0);
    const ints = new Int32Array(1);
    dotsI8(new Int16Array([3, -2, 0, 0]), new Int8Array([5, 7, 0, 0]), 1, 4, ints);
    assert.equal(ints[0], 1);
  });

  test('a grown arena keeps its rows and the kernel choice', () => {
    const { wasm } = twinArenas(20, 5, 9);
    wasm.dotsI8(5);
    const before = [...wasm.dots.subarray(0, 5)];
    const scores = [0, 1, 2, 3, 4].map((i) => wasm.dotF32(i));
    const grown = wasm.grown(50, 5, 'auto');
    grown.queryF32.set(wasm.queryF32);
    grown.queryI16.set(wasm.queryI16);
    grown.dotsI8(5);
    assert.equal(grown.kernel, 'wasm');
    assert.equal(grown.capacity, 50);
    assert.deepEqual([...grown.dots.subarray(0, 5)], before);
    assert.deepEqual([0, 1, 2, 3, 4].map((i) => grown.dotF32(i)), scores);
    grown.moveRow(4, 1);
    grown.dotsI8(5);
    assert.equal(grown.dots[1], before[4]);
    assert.equal(grown.dotF32(1), scores[4]);
  });
});

describe('vector arena sizes', () => {
  test('maxWasmRows: the rows that fit 4 GiB with the query, dots, float32 and int8 rows', () => {
    const rows = VectorArena.maxWasmRows(384, true);
    const bytes = (n: number): number => 384 * 6 + Math.ceil((n * 4) / 16) * 16 + n * 384 * 5;
    assert.ok(bytes(rows) <= 2 ** 32, `${rows} rows need ${bytes(rows)} bytes`);
    assert.ok(bytes(rows + 2) > 2 ** 32);
    assert.ok(VectorArena.maxWasmRows(384, false) > 4 * rows);
  });
});
