// Same-process A/B of the in-memory vector store's pieces on 100,000 × 384 random rows (one query
// at a time, min and p50 of --runs runs each):
//   - plain float32 scan in JavaScript (the store's previous kernel: float64 sums, 4 accumulators);
//   - float32 scan with the store's dot_f32 kernel on every row (WebAssembly SIMD, then JavaScript);
//   - int8 × int16 scan (dots_i8: the first step of the store's exact search; WebAssembly SIMD, then JavaScript);
//   - the store's whole exact search, top 10 (bounds + float32 scores of the candidates), both kernels.
//   node --import tsx bench/vector-kernels.ts [--count 100000] [--dim 384] [--runs 30]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { VectorArena } from '../lib/rag/stores/kernels/vector-arena.js';
import { InMemoryVectorStore } from '../lib/rag/stores/memory-vector-store.js';

const { values: args } = parseArgs({ options: { count: { type: 'string', default: '100000' }, dim: { type: 'string', default: '384' }, runs: { type: 'string', default: '30' } } });
const COUNT = Number(args.count);
const DIM = Number(args.dim);
const RUNS = Number(args.runs);

let seed = 11;
const random = (): number => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32 - 0.5;
};

async function time(name: string, run: () => unknown): Promise<void> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(46)} min ${(times[0] as number).toFixed(2).padStart(8)} ms   p50 ${(times[RUNS >> 1] as number).toFixed(2).padStart(8)} ms`);
}

console.log(`${COUNT.toLocaleString()} × ${DIM}, ${RUNS} runs each; load ${loadavg()[0]?.toFixed(2)}`);
const arenas = { wasm: new VectorArena(DIM, COUNT, true, 'wasm'), js: new VectorArena(DIM, COUNT, true, 'js') };
const width = arenas.wasm.width;
const plain = new Float32Array(COUNT * DIM);
const stores = { wasm: new InMemoryVectorStore({ kernel: 'wasm' }), js: new InMemoryVectorStore({ kernel: 'js' }) };
for (let start = 0; start < COUNT; start += 10_000) {
  const batch = Array.from({ length: Math.min(10_000, COUNT - start) }, () => Array.from({ length: DIM }, random));
  batch.forEach((vector, b) => {
    const row = start + b;
    const norm = Math.hypot(...vector);
    vector.forEach((x, j) => {
      plain[row * DIM + j] = x / norm;
      for (const arena of Object.values(arenas)) {
        arena.floats[row * width + j] = x / norm;
        arena.bytes[row * width + j] = Math.round((x / norm) * 400);
      }
    });
  });
  for (const store of Object.values(stores)) await store.addDocuments(batch.map((_, b) => ({ id: String(start + b), text: '', metadata: {} })), batch);
}
const query = Array.from({ length: DIM }, random);
const qNorm = Math.hypot(...query);
for (const arena of Object.values(arenas)) {
  query.forEach((x, j) => {
    arena.queryF32[j] = x / qNorm;
    arena.queryI16[j] = Math.round((x / qNorm) * 100_000);
  });
}
const q32 = Float32Array.from(query, (x) => x / qNorm);
const sink = new Float64Array(COUNT);

await time('plain float32 scan, JavaScript (previous)', () => {
  for (let row = 0; row < COUNT; row++) {
    const base = row * DIM;
    let d0 = 0;
    let d1 = 0;
    let d2 = 0;
    let d3 = 0;
    for (let j = 0; j < DIM; j += 4) {
      d0 += (q32[j] as number) * (plain[base + j] as number);
      d1 += (q32[j + 1] as number) * (plain[base + j + 1] as number);
      d2 += (q32[j + 2] as number) * (plain[base + j + 2] as number);
      d3 += (q32[j + 3] as number) * (plain[base + j + 3] as number);
    }
    sink[row] = d0 + d1 + d2 + d3;
  }
});
for (const [kernel, arena] of Object.entries(arenas)) {
  await time(`float32 scan, dot_f32 per row (${kernel})`, () => {
    for (let row = 0; row < COUNT; row++) sink[row] = arena.dotF32(row);
  });
}
for (const [kernel, arena] of Object.entries(arenas)) await time(`int8 × int16 scan, dots_i8 (${kernel})`, () => arena.dotsI8(COUNT));
for (const [kernel, store] of Object.entries(stores)) await time(`store exact search, top 10 (${kernel})`, () => store.search(query, 10));
for (const [kernel, store] of Object.entries(stores)) await time(`store exact search, top 100 (${kernel})`, () => store.search(query, 100));
console.log(`load ${loadavg()[0]?.toFixed(2)} at the end`);
