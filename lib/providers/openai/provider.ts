import OpenAI from 'openai';
import { ProviderConfigurationError } from '../../core/errors/provider-configuration-error.js';
import { defaultModelFor } from '../models/defaults.js';
import type { EmbedRequest, EmbedResponse, Provider, ProviderCapabilities, ProviderRequest, ProviderResponse, StreamPart } from '../spec.js';
import { CallControl } from '../call-control.js';
import { sdkTimeout, streamTimeouts, wholeCallTimeouts, type CallTimeouts, type ProviderTimeoutOptions } from '../call-timeouts.js';
import { toChatParams, type ChatParams } from './convert-request.js';
import { fromCompletion } from './convert-response.js';
import { embedTexts } from './embed.js';
import { toProviderFailure } from './errors.js';
import { PartStream } from './part-stream.js';
import { SseChunkReader } from './sse-chunks.js';

/** Options of an OpenAIProvider. */
export interface OpenAIProviderOptions extends ProviderTimeoutOptions {
  /** API key; defaults to `OPENAI_API_KEY`. Optional when `baseURL` points at a local server. */
  apiKey?: string;
  /** Base URL (an OpenAI-compatible server: vLLM, LM Studio, Groq…); defaults to `OPENAI_BASE_URL`. */
  baseURL?: string;
  /** Default chat model (otherwise agentlib's OpenAI default). */
  model?: string;
  /** `OpenAI-Organization` header; default `OPENAI_ORG_ID` (the SDK's); `null` sends none. */
  organization?: string | null;
  /** `OpenAI-Project` header; default `OPENAI_PROJECT_ID` (the SDK's); `null` sends none. */
  project?: string | null;
  /** A ready client (its own settings are used as they are). */
  client?: OpenAI;
}

/** Default total timeout of one call (the SDK's own default); streams also have first-byte and idle limits. */
export const DEFAULT_OPENAI_TIMEOUT_MS = 600_000;

function env(name: string): string | undefined {
  const value = process.env[name];
  return value && value.trim() !== '' ? value : undefined;
}

/**
 * The OpenAI Chat Completions adapter (also for OpenAI-compatible servers through `baseURL`), on
 * the official `openai` SDK with its retries off (agentlib retries). Failures are ProviderErrors;
 * a caller abort rethrows the signal's reason.
 */
export class OpenAIProvider implements Provider {
  readonly name: string = 'openai';
  readonly defaultModel: string;
  readonly capabilities: ProviderCapabilities = { tools: true, streaming: true, structuredOutput: true, vision: true, embeddings: true };
  readonly client: OpenAI;
  /** The limits of a `stream` call; `complete` / `embed` calls have the total only. */
  readonly timeouts: CallTimeouts;
  private readonly timeoutMs: number;

  constructor(options: OpenAIProviderOptions = {}) {
    this.defaultModel = options.model ?? defaultModelFor('openai');
    this.timeouts = streamTimeouts(options, DEFAULT_OPENAI_TIMEOUT_MS);
    // The SDK's own timeout only bounds the wait for the headers; 0 there would abort at once.
    this.timeoutMs = sdkTimeout(this.timeouts.totalMs);
    if (options.client) {
      this.client = options.client;
      return;
    }
    const baseURL = options.baseURL ?? env('OPENAI_BASE_URL');
    const apiKey = options.apiKey ?? env('OPENAI_API_KEY');
    if (!apiKey && !baseURL) {
      throw new ProviderConfigurationError('OpenAI API key missing: set OPENAI_API_KEY or pass { apiKey } (or a baseURL for a key-less local server)', {
        provider: this.name,
        keyVariables: ['OPENAI_API_KEY'],
      });
    }
    const clientOptions: ConstructorParameters<typeof OpenAI>[0] = { maxRetries: 0, timeout: this.timeoutMs };
    if (baseURL) clientOptions.baseURL = baseURL;
    if (options.organization !== undefined) clientOptions.organization = options.organization;
    if (options.project !== undefined) clientOptions.project = options.project;
    if (apiKey) clientOptions.apiKey = apiKey;
    else {
      // A key-less local server: satisfy the SDK, then send no Authorization header at all.
      clientOptions.apiKey = 'no-key';
      clientOptions.defaultHeaders = { Authorization: null };
    }
    this.client = new OpenAI(clientOptions);
  }

  /** The configured credentials, scrubbed from every error this provider throws. */
  protected get credentials(): (string | null | undefined)[] {
    const key: unknown = this.client.apiKey;
    return [typeof key === 'string' ? key : undefined];
  }

  /** The Chat Completions body for a request (subclasses adjust the model-family rules). */
  protected chatParams(request: ProviderRequest, model: string): ChatParams {
    return toChatParams(request, model);
  }

  async complete(request: ProviderRequest): Promise<ProviderResponse> {
    const model = request.model || this.defaultModel;
    const params = this.chatParams(request, model);
    const call = new CallControl(request.signal, wholeCallTimeouts(this.timeouts));
    try {
      const { data, request_id } = await this.client.chat.completions
        .create({ ...params, stream: false }, { signal: call.signal, maxRetries: 0, timeout: this.timeoutMs })
        .withResponse();
      return fromCompletion(data, this.name, request_id ?? undefined);
    } catch (error) {
      throw toProviderFailure(error, { provider: this.name, model, call, credentials: this.credentials });
    } finally {
      call.dispose();
    }
  }

  stream(request: ProviderRequest): AsyncIterableIterator<StreamPart> {
    const model = request.model || this.defaultModel;
    const params = this.chatParams(request, model);
    return new PartStream({
      provider: this.name,
      model,
      begin: () => new CallControl(request.signal, this.timeouts),
      open: async (call) => {
        // The SDK sends the request and maps an error status; agentlib decodes the event stream (SseChunkReader).
        const response = await this.client.chat.completions
          .create({ ...params, stream: true, stream_options: { include_usage: true } }, { signal: call.signal, maxRetries: 0, timeout: this.timeoutMs })
          .asResponse();
        return { chunks: new SseChunkReader(response), requestId: response.headers.get('x-request-id') ?? undefined };
      },
      fail: (error, call) => toProviderFailure(error, { provider: this.name, model, call, credentials: this.credentials }),
    });
  }

  async embed(request: EmbedRequest): Promise<EmbedResponse> {
    return embedTexts(
      {
        client: this.client,
        provider: this.name,
        run: async (fn, signal, model) => {
          const call = new CallControl(signal, wholeCallTimeouts(this.timeouts));
          try {
            return await fn(call.signal);
          } catch (error) {
            throw toProviderFailure(error, { provider: this.name, model, call, credentials: this.credentials });
          } finally {
            call.dispose();
          }
        },
      },
      request,
    );
  }
}
