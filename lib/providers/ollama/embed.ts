import type { Ollama } from 'ollama';
import { providerTransportError } from '../provider-errors.js';
import type { EmbedRequest, EmbedResponse } from '../spec.js';
import type { CallTimeouts } from '../call-timeouts.js';
import { OllamaCall } from './call.js';
import { OLLAMA, toOllamaError } from './errors.js';

/** Texts sent per `/api/embed` request. */
export const OLLAMA_EMBED_BATCH = 2048;

/** What `embedTexts` needs from the provider. */
export interface EmbedSettings {
  host: string;
  model: string;
  /** The limits of one request (the total only: nothing arrives before the whole reply). */
  timeouts: CallTimeouts;
  client: Ollama | undefined;
  apiKey?: string | undefined;
  keepAlive?: string | number;
  batchSize?: number;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** Embeds `request.texts` through `/api/embed` (`input` arrays, batched), in input order; zero cost. */
export async function embedTexts(request: EmbedRequest, settings: EmbedSettings): Promise<EmbedResponse> {
  const model = request.model ?? settings.model;
  const batchSize = Math.max(1, settings.batchSize ?? OLLAMA_EMBED_BATCH);
  const embeddings: number[][] = [];
  let tokens = 0;
  let reportedModel = model;
  for (let start = 0; start < request.texts.length; start += batchSize) {
    const input = request.texts.slice(start, start + batchSize);
    const call = new OllamaCall({ host: settings.host, model, timeouts: settings.timeouts, signal: request.signal, streaming: false, client: settings.client, apiKey: settings.apiKey });
    let raw: unknown;
    try {
      const body: Parameters<Ollama['embed']>[0] = { model, input };
      if (request.dimensions !== undefined) body.dimensions = request.dimensions;
      if (settings.keepAlive !== undefined) body.keep_alive = settings.keepAlive;
      raw = await call.guard(call.client.embed(body));
    } catch (error) {
      throw toOllamaError(error, call);
    } finally {
      call.finish();
    }
    const reply = (typeof raw === 'object' && raw !== null ? raw : {}) as { embeddings?: unknown; prompt_eval_count?: unknown; model?: unknown };
    const vectors = reply.embeddings;
    if (!Array.isArray(vectors) || vectors.length !== input.length || !vectors.every((v) => Array.isArray(v))) {
      throw providerTransportError(OLLAMA, 'stream', `Ollama returned ${Array.isArray(vectors) ? vectors.length : 'no'} embeddings for ${input.length} texts`, { model, retryable: false });
    }
    embeddings.push(...(vectors as number[][]));
    tokens += count(reply.prompt_eval_count);
    if (typeof reply.model === 'string') reportedModel = reply.model;
  }
  return { embeddings, usage: { tokens, costUsd: 0 }, model: reportedModel };
}
