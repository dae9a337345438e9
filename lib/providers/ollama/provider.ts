import type { Ollama } from 'ollama';
import { defaultModelFor } from '../models/defaults.js';
import { OllamaModels } from '../models/ollama.js';
import type { EmbedRequest, EmbedResponse, Provider, ProviderCapabilities, ProviderRequest, ProviderResponse, StreamPart } from '../spec.js';
import { streamTimeouts, wholeCallTimeouts, type CallTimeouts, type ProviderTimeoutOptions } from '../call-timeouts.js';
import { OllamaCall } from './call.js';
import { toChatRequest } from './convert-request.js';
import { toProviderResponse } from './convert-response.js';
import { embedTexts } from './embed.js';
import { OLLAMA, toOllamaError } from './errors.js';
import { streamChat } from './stream.js';

/** Where Ollama listens by default. */
export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';
/** Default total timeout of one call (streams also have first-byte and idle limits). */
export const DEFAULT_OLLAMA_TIMEOUT_MS = 600_000;

/** Options of {@link OllamaProvider}. */
export interface OllamaProviderOptions extends ProviderTimeoutOptions {
  /** Server URL. Default: `OLLAMA_HOST`, else `http://127.0.0.1:11434`. */
  host?: string;
  /** Chat model used when a request names none. Default: `defaultModelFor('ollama')`. */
  model?: string;
  /** Embedding model used when an embed request names none. Default: `nomic-embed-text`. */
  embeddingModel?: string;
  /**
   * A preconfigured `ollama` SDK client. Without one, the provider builds a client per call whose
   * fetch applies the timeout and the request signal; with one, both are enforced by abandoning the
   * call (the client's own fetch keeps its connection until it ends).
   */
  client?: Ollama;
  /** How long Ollama keeps the model loaded after a call (`keep_alive`: `'5m'`, seconds, `-1`). */
  keepAlive?: string | number;
  /**
   * Sent as `Authorization: Bearer <apiKey>` (an Ollama behind an authenticating proxy; YAML
   * `api_key_env`). Without it the SDK sends `OLLAMA_API_KEY` to https://ollama.com only.
   */
  apiKey?: string;
}

/** `host` with a scheme and without a trailing slash. */
export function normalizeOllamaHost(host: string): string {
  const trimmed = host.trim().replace(/\/+$/, '');
  if (trimmed.startsWith(':')) return `http://127.0.0.1${trimmed}`;
  return trimmed.includes('://') ? trimmed : `http://${trimmed}`;
}

/**
 * Ollama (local models) on the official `ollama` SDK: `/api/chat` with tools, images, structured
 * output (`format`) and NDJSON streaming, `/api/embed` for embeddings. Everything costs 0 USD.
 */
export class OllamaProvider implements Provider {
  readonly name = OLLAMA;
  readonly defaultModel: string;
  readonly embeddingModel: string;
  readonly host: string;
  /** The resolved total timeout of one call in ms. */
  readonly timeoutMs: number;
  /** The limits of a `stream` call (`complete` / `embed` have the total only). */
  readonly timeouts: CallTimeouts;
  readonly capabilities: ProviderCapabilities = { tools: true, streaming: true, structuredOutput: true, vision: true, embeddings: true };
  private readonly client: Ollama | undefined;
  private readonly keepAlive: string | number | undefined;
  private readonly apiKey: string | undefined;

  constructor(options: OllamaProviderOptions = {}) {
    const envHost = process.env.OLLAMA_HOST;
    this.host = normalizeOllamaHost(options.host ?? (envHost !== undefined && envHost.trim() !== '' ? envHost : DEFAULT_OLLAMA_HOST));
    this.defaultModel = options.model ?? defaultModelFor('ollama');
    this.embeddingModel = options.embeddingModel ?? OllamaModels.NOMIC_EMBED_TEXT;
    this.timeouts = streamTimeouts(options, DEFAULT_OLLAMA_TIMEOUT_MS);
    this.timeoutMs = this.timeouts.totalMs;
    this.client = options.client;
    this.keepAlive = options.keepAlive;
    this.apiKey = options.apiKey;
  }

  private call(request: { model?: string; signal?: AbortSignal | undefined }, streaming: boolean): OllamaCall {
    const model = request.model !== undefined && request.model !== '' ? request.model : this.defaultModel;
    const timeouts = streaming ? this.timeouts : wholeCallTimeouts(this.timeouts);
    return new OllamaCall({ host: this.host, model, timeouts, signal: request.signal, streaming, client: this.client, apiKey: this.apiKey });
  }

  private body(request: ProviderRequest, model: string): ReturnType<typeof toChatRequest> {
    return toChatRequest(request, this.keepAlive === undefined ? { model } : { model, keepAlive: this.keepAlive });
  }

  async complete(request: ProviderRequest): Promise<ProviderResponse> {
    const call = this.call(request, false);
    let raw: unknown;
    try {
      raw = await call.guard(call.client.chat({ ...this.body(request, call.model), stream: false }));
    } catch (error) {
      throw toOllamaError(error, call);
    } finally {
      call.finish();
    }
    return toProviderResponse(raw, call.model);
  }

  stream(request: ProviderRequest): AsyncGenerator<StreamPart> {
    // The call is created on the first pull (streamChat is a generator), so a stream that is never
    // consumed starts no timer; no generator of its own here (each `yield*` layer costs every part).
    return streamChat(() => {
      const call = this.call(request, true);
      return { call, body: this.body(request, call.model) };
    });
  }

  embed(request: EmbedRequest): Promise<EmbedResponse> {
    const settings = { host: this.host, model: this.embeddingModel, timeouts: wholeCallTimeouts(this.timeouts), client: this.client, apiKey: this.apiKey };
    return embedTexts(request, this.keepAlive === undefined ? settings : { ...settings, keepAlive: this.keepAlive });
  }
}
