import type { AgentUsage } from '../../core/usage.js';

/** Options of one embedding call. */
export interface EmbedOptions {
  /** Cancels the call. */
  signal?: AbortSignal;
  /** What is embedded: documents for the index, or a search query (some APIs embed them differently). Default 'document'. */
  purpose?: 'document' | 'query';
  /** Receives the tokens and cost spent (`embeddingTokens`, `embeddingCostUsd`), e.g. the run's usage. */
  usage?: AgentUsage;
}

/**
 * Turns texts into vectors. `embed` returns one vector per text, in order, each of `dimensions`
 * numbers; implementations batch requests to their API's limit.
 */
export interface EmbeddingProvider {
  /** A name for logs and index metadata (`openai:text-embedding-3-small`, `hashing-384`). */
  readonly name: string;
  /** Vector length, when known before the first call. */
  readonly dimensions: number | undefined;
  embed(texts: readonly string[], options?: EmbedOptions): Promise<number[][]>;
}

/** Cosine similarity of two vectors (0 when either is all zeros). */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
