import { ConfigurationError } from '../../core/errors/configuration-error.js';
import type { Document } from '../document.js';
import { cosineSimilarity, type EmbedOptions, type EmbeddingProvider } from '../embedders/embedding-provider.js';
import { chunkOf, type Chunker } from './chunker.js';
import { sentenceSpans } from './sentences.js';

/** Options of {@link SemanticChunker}. */
export interface SemanticChunkerOptions {
  /** Embeds the sentences. */
  embedder: EmbeddingProvider;
  /** A chunk ends where the cosine similarity of neighbouring sentences drops below this, 0 to 1. Default 0.75. */
  threshold?: number;
  /** Sentences a chunk holds at least before a drop may end it. Default 1. */
  minSentences?: number;
  /** Sentences a chunk holds at most. Default 50. */
  maxSentences?: number;
  /** Passed to every embedding call (signal, usage). */
  embedOptions?: EmbedOptions;
}

/**
 * Splits text into sentences, embeds them (one batched call per document), and starts a new chunk
 * where neighbouring sentences stop being similar (cosine below `threshold`, 0.75 by default),
 * keeping each chunk within `minSentences`–`maxSentences` (1–50). How "semantic" this is depends on
 * the embedder: with the lexical `HashingEmbedder` it cuts where the words change.
 */
export class SemanticChunker implements Chunker {
  readonly #embedder: EmbeddingProvider;
  readonly #threshold: number;
  readonly #min: number;
  readonly #max: number;
  readonly #embedOptions: EmbedOptions;

  constructor(options: SemanticChunkerOptions) {
    this.#embedder = options.embedder;
    this.#threshold = options.threshold ?? 0.75;
    this.#min = options.minSentences ?? 1;
    this.#max = options.maxSentences ?? 50;
    this.#embedOptions = options.embedOptions ?? {};
    if (!(this.#threshold >= 0 && this.#threshold <= 1)) throw new ConfigurationError(`SemanticChunker: threshold must be from 0 to 1, got ${this.#threshold}`, { key: 'threshold' });
    if (!Number.isInteger(this.#min) || this.#min < 1) throw new ConfigurationError(`SemanticChunker: minSentences must be an integer ≥ 1, got ${this.#min}`, { key: 'minSentences' });
    if (!Number.isInteger(this.#max) || this.#max < this.#min || this.#max > 50) {
      throw new ConfigurationError(`SemanticChunker: maxSentences must be an integer from minSentences (${this.#min}) to 50, got ${this.#max}`, { key: 'maxSentences' });
    }
  }

  async split(documents: readonly Document[]): Promise<Document[]> {
    const out: Document[] = [];
    for (const document of documents) {
      const sentences = sentenceSpans(document.text);
      if (sentences.length === 0) continue;
      const vectors = sentences.length > 1 ? await this.#embedder.embed(sentences.map(([s, e]) => document.text.slice(s, e)), this.#embedOptions) : [];
      let first = 0;
      let index = 0;
      const emit = (last: number): void => {
        const start = (sentences[first] as [number, number])[0];
        const end = (sentences[last] as [number, number])[1];
        out.push(chunkOf(document, document.text.slice(start, end), index++, start, end));
        first = last + 1;
      };
      for (let i = 1; i < sentences.length; i++) {
        const count = i - first;
        const similar = cosineSimilarity(vectors[i - 1] as number[], vectors[i] as number[]) >= this.#threshold;
        if (count >= this.#max || (!similar && count >= this.#min)) emit(i - 1);
      }
      emit(sentences.length - 1);
    }
    return out;
  }
}
