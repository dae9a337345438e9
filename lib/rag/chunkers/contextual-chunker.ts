import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { userMessage } from '../../core/message.js';
import { makeUsage, type AgentUsage } from '../../core/usage.js';
import { DEFAULT_RETRY, withRetry, type RetryOptions } from '../../providers/retry.js';
import type { Provider } from '../../providers/spec.js';
import type { Document } from '../document.js';
import type { Chunker } from './chunker.js';
import { RecursiveTextSplitter } from './recursive-text-splitter.js';

/** Options of {@link ContextualChunker}. */
export interface ContextualChunkerOptions {
  /** Writes the context of each chunk. */
  provider: Provider;
  /** Model; default the provider's. */
  model?: string;
  /** Makes the chunks that get a context. Default a RecursiveTextSplitter (1,000 / 200). */
  chunker?: Chunker;
  /** Characters of the document shown to the model at most (the start of it). Default 20,000. */
  maxDocumentChars?: number;
  /** Tokens of each context at most. Default 150. */
  maxTokens?: number;
  /** Retry policy of each call (the agent's defaults: 2 retries, full-jitter backoff). */
  retry?: RetryOptions;
  /** Receives the tokens and cost of the calls. */
  usage?: AgentUsage;
  signal?: AbortSignal;
}

/** The prefix of a chunk's text that carries its context. */
export const CONTEXT_PREFIX = '[Context] ';

/**
 * Contextual retrieval: for every chunk of a document, one LLM call writes a sentence or two that
 * situates the chunk in the document (what it is about, which section). The context goes into
 * `metadata.context`, and the chunk's text becomes `[Context] <context>\n\n<chunk>`, so embeddings
 * and BM25 see it. The document shown to the model is cut at `maxDocumentChars` (20,000).
 */
export class ContextualChunker implements Chunker {
  readonly #options: ContextualChunkerOptions;
  readonly #chunker: Chunker;
  readonly #maxChars: number;

  constructor(options: ContextualChunkerOptions) {
    this.#options = options;
    this.#chunker = options.chunker ?? new RecursiveTextSplitter();
    this.#maxChars = options.maxDocumentChars ?? 20_000;
    if (!Number.isInteger(this.#maxChars) || this.#maxChars < 1) {
      throw new ConfigurationError(`ContextualChunker: maxDocumentChars must be a positive integer, got ${this.#maxChars}`, { key: 'maxDocumentChars' });
    }
  }

  async split(documents: readonly Document[]): Promise<Document[]> {
    const out: Document[] = [];
    for (const document of documents) {
      const shown = document.text.length > this.#maxChars ? `${document.text.slice(0, this.#maxChars)}\n[… document cut at ${this.#maxChars} characters …]` : document.text;
      for (const chunk of await this.#chunker.split([document])) {
        const context = await this.#context(shown, chunk.text);
        out.push({ ...chunk, text: context === '' ? chunk.text : `${CONTEXT_PREFIX}${context}\n\n${chunk.text}`, metadata: { ...chunk.metadata, context } });
      }
    }
    return out;
  }

  async #context(documentText: string, chunkText: string): Promise<string> {
    const { provider, usage, signal } = this.#options;
    const prompt =
      `<document>\n${documentText}\n</document>\n\nHere is a chunk of that document:\n<chunk>\n${chunkText}\n</chunk>\n\n` +
      'Write one or two short sentences that situate this chunk within the whole document, to improve search retrieval of the chunk. ' +
      'Answer with the context only.';
    const request = {
      model: this.#options.model ?? provider.defaultModel,
      messages: [userMessage(prompt)],
      temperature: 0,
      maxTokens: this.#options.maxTokens ?? 150,
    };
    const response = await withRetry(
      (_attempt, { signal: attemptSignal }) => provider.complete(attemptSignal === undefined ? request : { ...request, signal: attemptSignal }),
      { ...DEFAULT_RETRY, ...this.#options.retry },
      signal === undefined ? { provider: provider.name } : { provider: provider.name, signal },
    );
    if (usage && response.usage) {
      usage.addLlmCall(makeUsage({ promptTokens: response.usage.promptTokens, completionTokens: response.usage.completionTokens, costUsd: response.usage.costUsd ?? 0 }));
    }
    return response.message.content.replace(/\s+/g, ' ').trim();
  }
}
