import type { EmbedContentConfig, GoogleGenAI } from '@google/genai';
import { charsToTokens } from '../../agent/token-estimate.js';
import { priceEmbedding } from '../models/pricing.js';
import { providerTransportError } from '../provider-errors.js';
import type { EmbedRequest, EmbedResponse, EmbedUsage } from '../spec.js';
import { GEMINI } from './errors.js';

/** batchEmbedContents accepts at most 100 requests per call. */
export const GEMINI_EMBED_BATCH = 100;

/** The usage of a Gemini embeddings reply (`EmbedUsage`; `estimated` when the API reported no count). */
export type GeminiEmbedUsage = EmbedUsage;

/** Token count when the response reports one (`usageMetadata.promptTokenCount` / `totalTokenCount`). */
function reportedTokens(response: unknown): number | undefined {
  const usage = (response as { usageMetadata?: { promptTokenCount?: unknown; totalTokenCount?: unknown } }).usageMetadata;
  const count = usage?.promptTokenCount ?? usage?.totalTokenCount;
  return typeof count === 'number' ? count : undefined;
}

/**
 * Embeds `texts` with `models.embedContent` (batchEmbedContents on the Gemini API), 100 texts per
 * request, vectors in input order. Usage: the tokens the API reports; for a batch it reports none
 * of (`@google/genai` 1.52 passes no usage through), the texts' characters / 4 — the estimate the
 * agent makes for chat replies without usage — and the usage is then marked `estimated: true`. The
 * cost is the registry price of those tokens (0 for a model it does not know).
 */
export async function embedTexts(client: GoogleGenAI, model: string, request: EmbedRequest, signal: AbortSignal): Promise<EmbedResponse> {
  const embeddings: number[][] = [];
  let tokens = 0;
  let estimated = false;
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
    const reported = reportedTokens(response);
    if (reported !== undefined) tokens += reported;
    else {
      for (const text of batch) tokens += charsToTokens(text);
      estimated = true;
    }
  }
  const usage: GeminiEmbedUsage = { tokens, costUsd: priceEmbedding(model, tokens) };
  if (estimated) usage.estimated = true;
  return { embeddings, usage, model };
}
