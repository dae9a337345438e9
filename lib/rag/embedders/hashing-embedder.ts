import { ConfigurationError } from '../../core/errors/configuration-error.js';
import type { EmbedOptions, EmbeddingProvider } from './embedding-provider.js';
import { fnv1a } from '../../core/fnv1a.js';

/** Options of {@link HashingEmbedder}. */
export interface HashingEmbedderOptions {
  /** Vector length. Default 384. */
  dimensions?: number;
  /** Character n-gram length hashed besides whole words (0 turns them off). Default 3. */
  charNgram?: number;
  /** Weight of the character n-grams against words (1 each). Default 0.5. */
  charWeight?: number;
}

/**
 * A local embedder that needs no network and no model: **lexical, not semantic.** It hashes the
 * words of a text and their character n-grams (trigrams by default) into a signed vector
 * ("feature hashing") and normalises it to unit length. Texts that share words, or word parts
 * (`refund` / `refunds`), get a high cosine similarity; synonyms and paraphrases do not
 * (`car` / `automobile` score about 0). Use it so RAG works on a fresh machine and in tests; use a
 * hosted or local model embedder (OpenAI, Gemini, Ollama, Cohere) for meaning. Deterministic across
 * runs and machines.
 */
export class HashingEmbedder implements EmbeddingProvider {
  readonly dimensions: number;
  readonly name: string;
  readonly #ngram: number;
  readonly #charWeight: number;

  constructor(options: HashingEmbedderOptions = {}) {
    this.dimensions = options.dimensions ?? 384;
    this.#ngram = options.charNgram ?? 3;
    this.#charWeight = options.charWeight ?? 0.5;
    if (!Number.isInteger(this.dimensions) || this.dimensions < 8 || this.dimensions > 16_384) {
      throw new ConfigurationError(`HashingEmbedder: dimensions must be an integer from 8 to 16384, got ${this.dimensions}`, { key: 'dimensions' });
    }
    if (!Number.isInteger(this.#ngram) || this.#ngram < 0 || this.#ngram > 8) throw new ConfigurationError(`HashingEmbedder: charNgram must be 0 to 8, got ${this.#ngram}`, { key: 'charNgram' });
    this.name = `hashing-${this.dimensions}`;
  }

  /** The vector of one text. */
  embedOne(text: string): number[] {
    const vector = new Float64Array(this.dimensions);
    const add = (feature: string, weight: number): void => {
      const hash = fnv1a(feature);
      const index = hash % this.dimensions;
      vector[index] = (vector[index] as number) + (fnv1a(feature, hash ^ 0x9e3779b9) & 1 ? weight : -weight);
    };
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      add(`w:${word}`, 1);
      if (this.#ngram > 0 && word.length > this.#ngram) {
        const padded = `<${word}>`;
        for (let i = 0; i + this.#ngram <= padded.length; i++) add(`c:${padded.slice(i, i + this.#ngram)}`, this.#charWeight);
      }
    }
    let sum = 0;
    for (const value of vector) sum += value * value;
    const norm = Math.sqrt(sum);
    const out = new Array<number>(this.dimensions);
    if (norm === 0) {
      out.fill(0);
      out[0] = 1;
      return out;
    }
    for (let i = 0; i < this.dimensions; i++) out[i] = (vector[i] as number) / norm;
    return out;
  }

  embed(texts: readonly string[], options: EmbedOptions = {}): Promise<number[][]> {
    options.signal?.throwIfAborted();
    return Promise.resolve(texts.map((text) => this.embedOne(text)));
  }
}
