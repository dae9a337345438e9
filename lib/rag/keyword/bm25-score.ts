/** BM25 parameters. */
export interface BM25Parameters {
  /** Term-frequency saturation. Default 1.5. */
  k1: number;
  /** Length normalisation, 0 (none) to 1 (full). Default 0.75. */
  b: number;
}

/** The defaults: k1 1.5, b 0.75. */
export const DEFAULT_BM25: Readonly<BM25Parameters> = { k1: 1.5, b: 0.75 };

/** The inverse document frequency of a term in `df` of `n` documents: ln(1 + (n − df + 0.5) / (df + 0.5)). */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * One term's BM25 contribution: idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · length / avgLength)).
 * A document's score is the sum over the distinct query terms it contains.
 */
export function bm25TermScore(idf: number, tf: number, length: number, avgLength: number, params: BM25Parameters = DEFAULT_BM25): number {
  return (idf * tf * (params.k1 + 1)) / (tf + params.k1 * (1 - params.b + (params.b * length) / avgLength));
}
