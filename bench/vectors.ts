// Exact top-10 vector search on 100,000 × 384 random unit vectors: agentlib's InMemoryVectorStore
// (contiguous Float32Array + heap), the same with int8 quantisation (approximate: recall@10
// printed beside it), the SqliteVectorStore (sqlite-vec's vec_distance_cosine over a table,
// exact) and the LanceDBVectorStore (exact flat scan of a Lance table on disk), all with the same queries. Prints the p50/p95 query latency of each.
//   node --import tsx bench/vectors.ts [--count 100000] [--dim 384] [--queries 50] [--check] [--json PATH | --no-json]
// Goals: in-memory exact p50 ≤ 25 ms on a 2-core machine, and ≥ 2× faster than sqlite-vec's exact search.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Document } from '../lib/rag/document.js';
import { InMemoryVectorStore } from '../lib/rag/stores/memory-vector-store.js';
import { LanceDBVectorStore } from '../lib/rag/stores/lancedb-vector-store.js';
import { SqliteVectorStore } from '../lib/rag/stores/sqlite-vector-store.js';
import type { VectorStore } from '../lib/rag/stores/vector-store.js';
import { closeAllStorage } from '../lib/storage/connection-registry.js';
import { quantile } from './lib/measure.js';

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    dim: { type: 'string', default: '384' },
    queries: { type: 'string', default: '50' },
    check: { type: 'boolean', default: false },
    json: { type: 'string', default: 'bench/results/vectors.json' },
    'no-json': { type: 'boolean', default: false },
  },
});
const COUNT = Number(args.count);
const DIM = Number(args.dim);
const QUERIES = Number(args.queries);

let seed = 7;
const random = (): number => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32 - 0.5;
};
const vector = (): number[] => Array.from({ length: DIM }, random);
const docs: Document[] = Array.from({ length: COUNT }, (_, i) => ({ id: String(i).padStart(6, '0'), text: `doc ${i}`, metadata: { group: i % 10 } }));
const vectors = docs.map(() => vector());
const queries = Array.from({ length: QUERIES }, () => vector());
console.log(`${COUNT.toLocaleString()} × ${DIM} vectors, ${QUERIES} queries, top-10; ${cpus().length} CPUs, load ${loadavg()[0]?.toFixed(2)}`);

interface Row {
  name: string;
  loadMs: number;
  p50Ms: number;
  p95Ms: number;
  recallAt10: number;
}
const rows: Row[] = [];
let exact: string[][] | undefined;
const dir = mkdtempSync(join(tmpdir(), 'agentlib-bench-vectors-'));
const stores: [string, () => VectorStore][] = [
  ['in-memory exact (float32)', () => new InMemoryVectorStore()],
  ['in-memory int8 (approximate)', () => new InMemoryVectorStore({ quantization: 'int8' })],
  ['sqlite-vec exact', () => new SqliteVectorStore({ path: join(dir, 'bench.db') })],
  ['lancedb exact (flat)', () => new LanceDBVectorStore({ path: join(dir, 'lance') })],
];
try {
  for (const [name, open] of stores) {
    const store = open();
    const started = performance.now();
    for (let i = 0; i < COUNT; i += 10_000) await store.addDocuments(docs.slice(i, i + 10_000), vectors.slice(i, i + 10_000));
    const loadMs = performance.now() - started;
    await store.search(queries[0] as number[], 10); // warm-up
    const latencies: number[] = [];
    const results: string[][] = [];
    for (const query of queries) {
      const t0 = performance.now();
      const hits = await store.search(query, 10);
      latencies.push(performance.now() - t0);
      results.push(hits.map((h) => h.document.id as string));
    }
    exact ??= results;
    const reference = exact;
    let found = 0;
    results.forEach((ids, q) => (found += ids.filter((id) => reference[q]?.includes(id)).length));
    rows.push({ name, loadMs, p50Ms: quantile(latencies, 0.5), p95Ms: quantile(latencies, 0.95), recallAt10: found / (10 * queries.length) });
    await store.close();
  }
} finally {
  await closeAllStorage();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${'store'.padEnd(30)} ${'load ms'.padStart(9)} ${'p50 ms'.padStart(9)} ${'p95 ms'.padStart(9)} ${'recall@10'.padStart(10)}`);
for (const row of rows) console.log(`${row.name.padEnd(30)} ${row.loadMs.toFixed(0).padStart(9)} ${row.p50Ms.toFixed(2).padStart(9)} ${row.p95Ms.toFixed(2).padStart(9)} ${row.recallAt10.toFixed(3).padStart(10)}`);
const memory = rows[0] as Row;
const sqlite = rows[2] as Row;
const speedup = sqlite.p50Ms / memory.p50Ms;
console.log(`in-memory exact p50 ${memory.p50Ms.toFixed(2)} ms (goal ≤ 25 ms); ${speedup.toFixed(2)}× faster than sqlite-vec exact (goal ≥ 2×)`);
if (!args['no-json']) {
  mkdirSync(dirname(args.json), { recursive: true });
  writeFileSync(args.json, `${JSON.stringify({ count: COUNT, dim: DIM, queries: QUERIES, rows, speedupVsSqliteVec: speedup }, null, 2)}\n`);
}
if (args.check && (memory.p50Ms > 25 || speedup < 2)) process.exit(1);
