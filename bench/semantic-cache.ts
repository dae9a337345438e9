// Precision and recall of the SemanticCache on a labelled set of query pairs
// (fixtures/semantic-cache/query-pairs.json: paraphrases that should share a cached answer, and
// near-misses — another entity, number, an antonym, another intent — that must not). For each
// pair, the first question is stored and the second looked up through a real SemanticCache (same
// model, system prompt and tools, so only the question differs); a hit on a near-miss is a false
// positive. Printed for thresholds 0.85–0.95, with and without the salient-token check.
//
// The embedder is the ScriptedProvider's deterministic hashed bag of words (lowercase words,
// feature hashing, `--dimensions`, default 256): no network, no model weights, reproducible. It
// measures the cache's mechanics with a lexical embedder, NOT what a neural embedding model would
// give; paraphrases that change many words score low with it (recall suffers, precision does not).
//   node --import tsx bench/semantic-cache.ts [--dimensions 256] [--check] [--json PATH | --no-json]
// Target: precision ≥ 0.98 at the default threshold 0.92 with the salient-token check on.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { CacheKeyBuilder, DEFAULT_SIMILARITY_THRESHOLD, SemanticCache } from '../lib/cache/index.js';
import { userMessage } from '../lib/core/message.js';
import { ScriptedProvider } from '../lib/providers/scripted.js';

const { values: args } = parseArgs({
  options: {
    dimensions: { type: 'string', default: '256' },
    check: { type: 'boolean', default: false },
    json: { type: 'string', default: 'bench/results/semantic-cache.json' },
    'no-json': { type: 'boolean', default: false },
  },
});
const dimensions = Number(args.dimensions);
if (!Number.isInteger(dimensions) || dimensions < 2) throw new Error(`--dimensions must be an integer ≥ 2, got ${args.dimensions}`);

interface Pair {
  a: string;
  b: string;
  same: boolean;
  kind: string;
}
const fixture = JSON.parse(readFileSync(new URL('../fixtures/semantic-cache/query-pairs.json', import.meta.url), 'utf8')) as { pairs: Pair[] };
const THRESHOLDS = [0.85, 0.86, 0.87, 0.88, 0.89, 0.9, 0.91, 0.92, 0.93, 0.94, 0.95];
const TARGET_PRECISION = 0.98;

const request = (text: string) => ({ model: 'bench-model', system: 'You answer questions.', messages: [userMessage(text)] });

/** Similarity of b to a, and whether the salient-token check passes, from a real SemanticCache. */
async function measure(pair: Pair): Promise<{ similarity: number; salientMatch: boolean; hitAtDefault: boolean }> {
  const embedder = new ScriptedProvider({ embeddingDimensions: dimensions });
  const cache = new SemanticCache(embedder);
  await cache.set(CacheKeyBuilder.response(request(pair.a)), `answer to: ${pair.a}`, undefined, CacheKeyBuilder.responseHint(request(pair.a)));
  const hint = CacheKeyBuilder.responseHint(request(pair.b));
  const match = await cache.nearest(hint.text ?? '', hint.scope ?? '');
  const hit = await cache.get(CacheKeyBuilder.response(request(pair.b)), hint);
  if (match === undefined) throw new Error('the stored question is missing');
  return { similarity: match.similarity, salientMatch: match.salientMatch, hitAtDefault: hit !== undefined };
}

const measured = await Promise.all(fixture.pairs.map(async (pair) => ({ pair, ...(await measure(pair)) })));
// The cache's own decision at 0.92 must equal the rule the table applies.
for (const m of measured) {
  const rule = m.similarity >= DEFAULT_SIMILARITY_THRESHOLD && m.salientMatch;
  if (rule !== m.hitAtDefault) throw new Error(`cache decision differs from the rule for ${JSON.stringify(m.pair)}`);
}

interface Row {
  threshold: number;
  salientCheck: boolean;
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  falseHits: string[];
}
const rows: Row[] = [];
for (const salientCheck of [true, false]) {
  for (const threshold of THRESHOLDS) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    const falseHits: string[] = [];
    for (const m of measured) {
      const hit = m.similarity >= threshold && (!salientCheck || m.salientMatch);
      if (hit && m.pair.same) tp++;
      else if (hit) {
        fp++;
        falseHits.push(`${m.pair.kind}: "${m.pair.a}" ~ "${m.pair.b}" (${m.similarity.toFixed(3)})`);
      } else if (m.pair.same) fn++;
    }
    rows.push({ threshold, salientCheck, tp, fp, fn, precision: tp + fp === 0 ? 1 : tp / (tp + fp), recall: tp / (tp + fn), falseHits });
  }
}

const positives = fixture.pairs.filter((p) => p.same).length;
console.log(`semantic-cache: ${fixture.pairs.length} pairs (${positives} paraphrases, ${fixture.pairs.length - positives} near-misses); embedder: ScriptedProvider hashed bag of words, ${dimensions} dimensions`);
console.log(`${'threshold'.padStart(9)}  ${'salient'.padEnd(8)}${'TP'.padStart(4)}${'FP'.padStart(4)}${'FN'.padStart(4)}${'precision'.padStart(11)}${'recall'.padStart(8)}`);
for (const row of rows) {
  console.log(`${row.threshold.toFixed(2).padStart(9)}  ${(row.salientCheck ? 'on' : 'off').padEnd(8)}${String(row.tp).padStart(4)}${String(row.fp).padStart(4)}${String(row.fn).padStart(4)}${row.precision.toFixed(3).padStart(11)}${row.recall.toFixed(3).padStart(8)}`);
}
const byKind = new Map<string, number[]>();
for (const m of measured) byKind.set(m.pair.kind, [...(byKind.get(m.pair.kind) ?? []), m.similarity]);
console.log('mean similarity by kind: ' + [...byKind].map(([kind, sims]) => `${kind} ${(sims.reduce((s, x) => s + x, 0) / sims.length).toFixed(3)}`).join(', '));
const atDefault = rows.find((r) => r.salientCheck && r.threshold === DEFAULT_SIMILARITY_THRESHOLD);
if (atDefault === undefined) throw new Error('no row for the default threshold');
for (const line of atDefault.falseHits) console.log(`false hit at ${DEFAULT_SIMILARITY_THRESHOLD}: ${line}`);
const met = atDefault.precision >= TARGET_PRECISION;
console.log(`target: precision ≥ ${TARGET_PRECISION} at ${DEFAULT_SIMILARITY_THRESHOLD} (salient check on): ${atDefault.precision.toFixed(3)}, ${met ? 'met' : 'MISSED'}; recall there ${atDefault.recall.toFixed(3)}`);

if (!args['no-json']) {
  mkdirSync(dirname(args.json), { recursive: true });
  const pairs = measured.map((m) => ({ kind: m.pair.kind, same: m.pair.same, similarity: Number(m.similarity.toFixed(4)), salientMatch: m.salientMatch }));
  writeFileSync(args.json, `${JSON.stringify({ version: 1, embedder: `scripted-hash-bow-${dimensions}`, rows, pairs, target: { threshold: DEFAULT_SIMILARITY_THRESHOLD, minPrecision: TARGET_PRECISION, met } }, null, 2)}\n`);
}
if (args.check && !met) process.exitCode = 1;
