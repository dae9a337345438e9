import { GoogleGenAI, type GenerateContentResponse } from '@google/genai';
import { ProviderConfigurationError } from '../../core/errors/provider-configuration-error.js';
import { defaultModelFor } from '../models/defaults.js';
import type { EmbedRequest, EmbedResponse, Provider, ProviderCapabilities, ProviderRequest, ProviderResponse, StreamPart } from '../spec.js';
import { streamTimeouts, wholeCallTimeouts, type CallTimeouts, type ProviderTimeoutOptions } from '../call-timeouts.js';
import { callSignal, type CallSignal } from './call-signal.js';
import { toGeminiRequest } from './convert-request.js';
import { toProviderResponse } from './convert-response.js';
import { embedTexts } from './embed.js';
import { GEMINI, toGeminiError, type FailurePhase } from './errors.js';
import { watchGeminiHttp } from './http-watch.js';
import { toStreamParts } from './stream.js';

/** Options of a GeminiProvider. */
export interface GeminiProviderOptions extends ProviderTimeoutOptions {
  /** API key; default `GEMINI_API_KEY`, then `GOOGLE_API_KEY`. Not needed when `client` is given. */
  apiKey?: string;
  /** Base URL of the API (a proxy, or a replay server in tests). */
  baseURL?: string;
  /** Default model of this provider instance (default `gemini-2.5-flash`). */
  model?: string;
  /**
   * A ready SDK client (its own options apply; `apiKey`/`baseURL` are then ignored). The adapter
   * wraps the client's HTTP calls (once) to read Retry-After headers and in-stream error events.
   */
  client?: GoogleGenAI;
}

/** Default total timeout of one call (the same as the OpenAI adapter's). */
export const DEFAULT_GEMINI_TIMEOUT_MS = 600_000;

/** The default embedding model. */
export const GEMINI_DEFAULT_EMBEDDING_MODEL = 'gemini-embedding-001';

function resolveApiKey(explicit: string | undefined): string {
  const key = explicit ?? process.env.GEMINI_API_KEY ?? process.env.GOOGLE_API_KEY;
  if (!key) {
    throw new ProviderConfigurationError('gemini: no API key; pass apiKey or set GEMINI_API_KEY or GOOGLE_API_KEY', { provider: GEMINI, keyVariables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'] });
  }
  return key;
}

/**
 * Gemini API adapter on `@google/genai`. The SDK's own retries stay off (it only retries when
 * `httpOptions.retryOptions` is set), so agentlib's retry policy is the only one.
 */
export class GeminiProvider implements Provider {
  readonly name = GEMINI;
  readonly defaultModel: string;
  readonly capabilities: ProviderCapabilities = { tools: true, streaming: true, structuredOutput: true, vision: true, embeddings: true };
  /** The SDK client. */
  readonly client: GoogleGenAI;
  /** The resolved total timeout of one call in ms (`options.timeoutMs`, default 600000; ≤ 0: none). */
  readonly timeoutMs: number;
  /** The limits of a `stream` call (`complete` / `embed` have the total only). */
  readonly timeouts: CallTimeouts;

  constructor(options: GeminiProviderOptions = {}) {
    this.defaultModel = options.model ?? defaultModelFor('gemini');
    this.timeouts = streamTimeouts(options, DEFAULT_GEMINI_TIMEOUT_MS);
    this.timeoutMs = this.timeouts.totalMs;
    this.client =
      options.client ??
      new GoogleGenAI({ apiKey: resolveApiKey(options.apiKey), ...(options.baseURL !== undefined ? { httpOptions: { baseUrl: options.baseURL } } : {}) });
    // Retry-After headers and error events inside streams, which the SDK drops (see watchGeminiHttp).
    watchGeminiHttp(this.client);
  }

  private fail(error: unknown, call: CallSignal, outer: AbortSignal | undefined, model: string, phase: FailurePhase): unknown {
    const key: unknown = (this.client as unknown as { apiKey?: unknown }).apiKey;
    const credentials = [typeof key === 'string' ? key : undefined];
    return toGeminiError(error, { model, signal: outer, timedOut: call.timedOut, timeoutMs: this.timeoutMs, timeoutText: call.describeTimeout(), phase, credentials });
  }

  async complete(request: ProviderRequest): Promise<ProviderResponse> {
    const { model, contents, config } = toGeminiRequest({ ...request, model: request.model || this.defaultModel });
    const call = callSignal(request.signal, wholeCallTimeouts(this.timeouts));
    let response: GenerateContentResponse;
    try {
      response = await this.client.models.generateContent({ model, contents, config: { ...config, abortSignal: call.signal } });
    } catch (error) {
      throw this.fail(error, call, request.signal, model, 'request');
    } finally {
      call.dispose();
    }
    return toProviderResponse(response, request.tools?.map((tool) => tool.name), model);
  }

  async *stream(request: ProviderRequest): AsyncGenerator<StreamPart> {
    const { model, contents, config } = toGeminiRequest({ ...request, model: request.model || this.defaultModel });
    const call = callSignal(request.signal, this.timeouts);
    let phase: FailurePhase = 'request';
    try {
      const chunks = await this.client.models.generateContentStream({ model, contents, config: { ...config, abortSignal: call.signal } });
      phase = 'stream';
      yield* toStreamParts(chunks, model, () => call.touch(), request.tools?.map((tool) => tool.name));
    } catch (error) {
      throw this.fail(error, call, request.signal, model, phase);
    } finally {
      call.dispose();
    }
  }

  async embed(request: EmbedRequest): Promise<EmbedResponse> {
    const model = request.model ?? GEMINI_DEFAULT_EMBEDDING_MODEL;
    const call = callSignal(request.signal, wholeCallTimeouts(this.timeouts));
    try {
      return await embedTexts(this.client, model, request, call.signal);
    } catch (error) {
      throw this.fail(error, call, request.signal, model, 'request');
    } finally {
      call.dispose();
    }
  }
}
