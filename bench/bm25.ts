// BM25 keyword search on 100,000 generated documents: agentlib's BM25 (lib/rag/keyword/bm25.ts)
// against MiniSearch and wink-bm25-text-search (bench/'s own package.json), all with the same
// tokens (lowercase [a-z0-9]+, English stop words) and k1 1.5, b 0.75 (MiniSearch with d = 0, i.e.
// plain BM25). Prints index time, p50/p95 query latency and queries per second of each, and checks
// agentlib's top-10 against a straightforward reference BM25 on 200 queries (identical lists).
//   node --import tsx bench/bm25.ts [--docs 100000] [--queries 200] [--check] [--json PATH | --no-json]
// Goal: ≥ 3× MiniSearch's query throughput, and 200/200 identical top-10 lists.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import MiniSearch from 'minisearch';
import { BM25 } from '../lib/rag/keyword/bm25.js';
import { bm25Tokens } from '../lib/rag/keyword/tokenize.js';
import { quantile } from './lib/measure.js';

const { values: args } = parseArgs({
  options: {
    docs: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '200' },
    check: { type: 'boolean', default: false },
    json: { type: 'string', default: 'bench/results/bm25.json' },
    'no-json': { type: 'boolean', default: false },
  },
});
const DOCS = Number(args.docs);
const QUERIES = Number(args.queries);

/** A seeded generator (LCG), so every run indexes the same corpus. */
let seed = 12345;
const random = (): number => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
};

// A 30,000-word vocabulary of pronounceable words, drawn with a Zipf-like skew (rank^-1.07).
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'te', 'vi', 'zo', 'pa', 'qui', 'der', 'fin', 'gor', 'hal', 'jun', 'bex', 'cor', 'wy', 'xel'];
const vocabulary: string[] = [];
const seen = new Set<string>();
while (vocabulary.length < 30_000) {
  let word = '';
  const syllables = 2 + Math.floor(random() * 3);
  for (let i = 0; i < syllables; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
  if (!seen.has(word)) {
    seen.add(word);
    vocabulary.push(word);
  }
}
const weights = vocabulary.map((_, rank) => 1 / (rank + 1) ** 1.07);
const cumulative: number[] = [];
weights.reduce((sum, w, i) => (cumulative[i] = sum + w), 0);
const total = cumulative.at(-1) as number;
const drawWord = (): string => {
  const target = random() * total;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cumulative[mid] as number) < target) lo = mid + 1;
    else hi = mid;
  }
  return vocabulary[lo] as string;
};
const STOP = ['the', 'and', 'of', 'to', 'in', 'is', 'for', 'with'];
const texts: string[] = [];
for (let d = 0; d < DOCS; d++) {
  const length = 20 + Math.floor(random() * 180);
  const words: string[] = [];
  for (let i = 0; i < length; i++) words.push(random() < 0.15 ? (STOP[Math.floor(random() * STOP.length)] as string) : drawWord());
  texts.push(words.join(' '));
}
// Queries: 2–4 words from ranks 50–5,000 (not the commonest, not the rarest).
const queries: string[] = [];
for (let q = 0; q < QUERIES; q++) {
  const n = 2 + Math.floor(random() * 3);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(vocabulary[50 + Math.floor(random() * 4950)] as string);
  queries.push(words.join(' '));
}
console.log(`corpus: ${DOCS.toLocaleString()} documents, ${queries.length} queries; ${cpus().length} CPUs, load ${loadavg()[0]?.toFixed(2)}`);

interface Engine {
  name: string;
  index(): void;
  search(query: string): string[];
}

const engines: Engine[] = [];
{
  const bm25 = new BM25();
  engines.push({
    name: 'agentlib BM25',
    index: () => bm25.add(texts.map((text, i) => ({ id: String(i), text, metadata: {} }))),
    search: (query) => bm25.search(query, 10).map((r) => r.document.id as string),
  });
}
{
  const mini = new MiniSearch<{ id: string; text: string }>({
    fields: ['text'],
    tokenize: (text) => bm25Tokens(text, { stopWords: false }),
    processTerm: (term) => (bm25Tokens(term).length === 0 ? null : term),
    searchOptions: { bm25: { k: 1.5, b: 0.75, d: 0 } },
  });
  engines.push({
    name: `MiniSearch`,
    index: () => mini.addAll(texts.map((text, i) => ({ id: String(i), text }))),
    search: (query) => mini.search(query).slice(0, 10).map((r) => String(r.id)),
  });
}
{
  const require = createRequire(import.meta.url);
  interface Wink {
    defineConfig(config: unknown): void;
    definePrepTasks(tasks: ((input: string) => string[])[]): void;
    addDoc(doc: { text: string }, id: string): void;
    consolidate(): void;
    search(query: string, limit: number): [string, number][];
  }
  const wink = (require('wink-bm25-text-search') as () => Wink)();
  wink.defineConfig({ fldWeights: { text: 1 }, bm25Params: { k1: 1.5, b: 0.75, k: 1 } });
  wink.definePrepTasks([(text) => bm25Tokens(text)]);
  engines.push({
    name: 'wink-bm25-text-search',
    index: () => {
      texts.forEach((text, i) => wink.addDoc({ text }, String(i)));
      wink.consolidate();
    },
    search: (query) => wink.search(query, 10).map(([id]) => id),
  });
}

/** The reference: score every document from the formula (document frequencies counted once). */
function referenceTop10(): string[][] {
  const docTerms = texts.map((text) => {
    const tf = new Map<string, number>();
    const tokens = bm25Tokens(text);
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { tf, length: tokens.length };
  });
  const df = new Map<string, number>();
  for (const { tf } of docTerms) for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const avg = docTerms.reduce((s, d) => s + d.length, 0) / docTerms.length;
  return queries.map((query) => {
    const terms = [...new Set(bm25Tokens(query))];
    const scored: [number, number][] = [];
    docTerms.forEach(({ tf, length }, i) => {
      let score = 0;
      for (const term of terms) {
        const f = tf.get(term);
        if (!f) continue;
        const n = df.get(term) as number;
        const idf = Math.log(1 + (docTerms.length - n + 0.5) / (n + 0.5));
        score += (idf * f * 2.5) / (f + 1.5 * (1 - 0.75 + (0.75 * length) / avg));
      }
      if (score > 0) scored.push([i, score]);
    });
    return scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 10).map(([i]) => String(i));
  });
}

interface Row {
  name: string;
  indexMs: number;
  p50Ms: number;
  p95Ms: number;
  qps: number;
  top10Agreement: number;
}
const reference = referenceTop10();
const rows: Row[] = [];
for (const engine of engines) {
  const started = performance.now();
  engine.index();
  const indexMs = performance.now() - started;
  for (const query of queries) engine.search(query); // warm-up round
  const latencies: number[] = [];
  const rounds = 3;
  const loopStart = performance.now();
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      const t0 = performance.now();
      engine.search(query);
      latencies.push(performance.now() - t0);
    }
  }
  const loopMs = performance.now() - loopStart;
  const agreement = queries.filter((query, i) => JSON.stringify(engine.search(query)) === JSON.stringify(reference[i])).length;
  rows.push({ name: engine.name, indexMs, p50Ms: quantile(latencies, 0.5), p95Ms: quantile(latencies, 0.95), qps: (rounds * queries.length * 1000) / loopMs, top10Agreement: agreement });
}

const ours = rows[0] as Row;
const mini = rows[1] as Row;
console.log(`${'engine'.padEnd(24)} ${'index ms'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'queries/s'.padStart(10)} ${'top-10 = reference'.padStart(19)}`);
for (const row of rows) {
  console.log(
    `${row.name.padEnd(24)} ${row.indexMs.toFixed(0).padStart(9)} ${row.p50Ms.toFixed(3).padStart(8)} ${row.p95Ms.toFixed(3).padStart(8)} ${row.qps.toFixed(0).padStart(10)} ${`${row.top10Agreement}/${queries.length}`.padStart(19)}`,
  );
}
const ratio = ours.qps / mini.qps;
console.log(`agentlib / MiniSearch query throughput: ${ratio.toFixed(2)}× (goal ≥ 3×); identical top-10: ${ours.top10Agreement}/${queries.length}`);
if (!args['no-json']) {
  mkdirSync(dirname(args.json), { recursive: true });
  writeFileSync(args.json, `${JSON.stringify({ docs: DOCS, queries: queries.length, rows, ratioVsMiniSearch: ratio }, null, 2)}\n`);
}
if (args.check && (ratio < 3 || ours.top10Agreement !== queries.length)) process.exit(1);
