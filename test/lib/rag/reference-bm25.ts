import { bm25Tokens } from '../../../lib/rag/keyword/tokenize.js';

/**
 * A straightforward BM25 written from the formula, for checking the index: every document is
 * scored term by term from scratch. Returns [index, score] of the matching documents, best first,
 * equal scores in document order.
 */
export function referenceBm25(texts: readonly string[], query: string, k1 = 1.5, b = 0.75): [number, number][] {
  const docs = texts.map((text) => bm25Tokens(text));
  const n = docs.length;
  const avg = docs.reduce((sum, doc) => sum + doc.length, 0) / n || 1;
  const terms = [...new Set(bm25Tokens(query))];
  const out: [number, number][] = [];
  docs.forEach((doc, index) => {
    let score = 0;
    for (const term of terms) {
      const tf = doc.filter((t) => t === term).length;
      if (tf === 0) continue;
      const df = docs.filter((d) => d.includes(term)).length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / avg));
    }
    if (score > 0) out.push([index, score]);
  });
  return out.sort((x, y) => y[1] - x[1] || x[0] - y[0]);
}
