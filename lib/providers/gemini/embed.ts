import type { EmbedContentConfig, GoogleGenAI } from '@google/genai';
import { priceEmbedding } from '../models/pricing.js';
import { providerTransportError } from '../provider-errors.js';
import type { EmbedRequest, EmbedResponse } from '../spec.js';
import { GEMINI } from './errors.js';

/** batchEmbedContents accepts at most 100 requests per call. */
export const GEMINI_EMBED_BATCH = 100;

interface EmbedUsage {
  tokens?: number;
}

/** Token count when the response reports one (`usageMetadata.promptTokenCount` / `totalTokenCount`). */
function reportedTokens(response: unknown): number | undefined {
  const usage = (response as { usageMetadata?: { promptTokenCount?: unknown; totalTokenCount?: unknown } }).usageMetadata;
  const count = usage?.promptTokenCount ?? usage?.totalTokenCount;
  return typeof count === 'number' ? count : undefined;
}

/**
 * Embeds `texts` with `models.embedContent` (batchEmbedContents on the Gemini API), 100 texts per
 * request, vectors in input order. Usage tokens (and their cost) are filled in only when the API
 * reports them.
 */
export async function embedTexts(client: GoogleGenAI, model: string, request: EmbedRequest, signal: AbortSignal): Promise<EmbedResponse> {
  const embeddings: number[][] = [];
  const usage: EmbedUsage = {};
  for (let start = 0; start < request.texts.length; start += GEMINI_EMBED_BATCH) {
    const batch = request.texts.slice(start, start + GEMINI_EMBED_BATCH);
    const config: EmbedContentConfig = { abortSignal: signal };
    if (request.taskType !== undefined) config.taskType = request.taskType;
    if (request.dimensions !== undefined) config.outputDimensionality = request.dimensions;
    // One Content per text: for gemini-embedding-2 models the SDK would merge bare strings into one multi-part content (one vector).
    const response = await client.models.embedContent({ model, contents: batch.map((text) => ({ role: 'user', parts: [{ text }] })), config });
    const vectors = response.embeddings ?? [];
    if (vectors.length !== batch.length || vectors.some((v) => !Array.isArray(v.values))) {
      throw providerTransportError(GEMINI, 'stream', `expected ${batch.length} embeddings, got ${vectors.length}`, { model, retryable: false });
    }
    for (const vector of vectors) embeddings.push(vector.values!);
    const tokens = reportedTokens(response);
    if (tokens !== undefined) usage.tokens = (usage.tokens ?? 0) + tokens;
  }
  const result: EmbedResponse = { embeddings, usage: { tokens: usage.tokens ?? 0 }, model };
  if (usage.tokens !== undefined) result.usage.costUsd = priceEmbedding(model, usage.tokens);
  return result;
}
