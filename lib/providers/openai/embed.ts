import type OpenAI from 'openai';
import type { EmbedRequest, EmbedResponse } from '../spec.js';
import { priceEmbedding } from '../models/pricing.js';
import { providerTransportError } from '../provider-errors.js';

/** Inputs per embeddings request (the API's limit). */
export const EMBED_BATCH_SIZE = 2048;

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
 * `POST /embeddings` in batches of 2048 inputs, asking for base64 (smaller on the wire) and
 * decoding it; float arrays from servers that ignore `encoding_format` are accepted as they are.
 */
export async function embedTexts(call: EmbedCall, request: EmbedRequest): Promise<EmbedResponse> {
  const model = request.model ?? DEFAULT_EMBEDDING_MODEL;
  const embeddings: number[][] = [];
  let tokens = 0;
  let reportedModel: string | undefined;
  for (let start = 0; start < request.texts.length; start += EMBED_BATCH_SIZE) {
    const input = request.texts.slice(start, start + EMBED_BATCH_SIZE);
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
