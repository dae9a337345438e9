import type OpenAI from 'openai';
import type { EmbedRequest, EmbedResponse } from '../spec.js';
import { priceEmbedding } from '../models/pricing.js';
import { providerTransportError } from '../provider-errors.js';

/** Inputs per embeddings request (the API's limit). */
export const EMBED_BATCH_SIZE = 2048;

/** Estimated tokens per embeddings request (the API rejects requests over 300k tokens in all). */
export const EMBED_MAX_TOKENS_PER_REQUEST = 300_000;

/** Estimated tokens of an input: characters / 4, rounded up (no tokenizer is loaded). */
export function estimateEmbedTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Splits inputs into requests of at most `maxInputs` texts and `maxTokens` estimated tokens
 * (chars / 4), in order. A single text over `maxTokens` gets a request of its own (the API then
 * reports what is wrong with it). Returns `[start, end)` ranges.
 */
export function embedBatches(texts: readonly string[], maxInputs = EMBED_BATCH_SIZE, maxTokens = EMBED_MAX_TOKENS_PER_REQUEST): [number, number][] {
  const batches: [number, number][] = [];
  let start = 0;
  let tokens = 0;
  for (let i = 0; i < texts.length; i++) {
    const cost = estimateEmbedTokens(texts[i] as string);
    if (i > start && (i - start >= maxInputs || tokens + cost > maxTokens)) {
      batches.push([start, i]);
      start = i;
      tokens = 0;
    }
    tokens += cost;
  }
  if (start < texts.length) batches.push([start, texts.length]);
  return batches;
}

/** The default embedding model. */
export const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';

/** Decodes a base64 embedding (little-endian float32) into numbers. */
export function decodeEmbedding(value: string | readonly number[]): number[] {
  if (typeof value !== 'string') return [...value];
  const bytes = Buffer.from(value, 'base64');
  const out = new Array<number>(Math.floor(bytes.length / 4));
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/** What one embeddings call needs besides the request. */
export interface EmbedCall {
  client: OpenAI;
  provider: string;
  /** Runs one SDK call with the provider's signal, timeout and error mapping. */
  run<T>(fn: (signal: AbortSignal) => Promise<T>, signal: AbortSignal | undefined, model: string): Promise<T>;
}

/**
 * `POST /embeddings` in batches of at most 2048 inputs and about 300k tokens (estimated at
 * chars / 4), asking for base64 (smaller on the wire) and decoding it; float arrays from servers
 * that ignore `encoding_format` are accepted as they are.
 */
export async function embedTexts(call: EmbedCall, request: EmbedRequest): Promise<EmbedResponse> {
  const model = request.model ?? DEFAULT_EMBEDDING_MODEL;
  const embeddings: number[][] = [];
  let tokens = 0;
  let reportedModel: string | undefined;
  for (const [start, end] of embedBatches(request.texts)) {
    const input = request.texts.slice(start, end);
    const body: OpenAI.EmbeddingCreateParams = { model, input, encoding_format: 'base64' };
    if (request.dimensions !== undefined) body.dimensions = request.dimensions;
    const reply = await call.run((signal) => call.client.embeddings.create(body, { signal }), request.signal, model);
    const batch = [...reply.data].sort((a, b) => a.index - b.index);
    if (batch.length !== input.length) throw providerTransportError(call.provider, 'stream', `embeddings reply has ${batch.length} vectors for ${input.length} inputs`, { model, retryable: false });
    for (const item of batch) embeddings.push(decodeEmbedding(item.embedding));
    tokens += reply.usage?.total_tokens ?? reply.usage?.prompt_tokens ?? 0;
    reportedModel ??= reply.model;
  }
  const usedModel = reportedModel ?? model;
  return { embeddings, usage: { tokens, costUsd: priceEmbedding(usedModel, tokens) }, model: usedModel };
}
