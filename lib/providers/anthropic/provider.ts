import Anthropic from '@anthropic-ai/sdk';
import { ProviderConfigurationError } from '../../core/errors/provider-configuration-error.js';
import { defaultModelFor } from '../models/defaults.js';
import type { Provider, ProviderCapabilities, ProviderRequest, ProviderResponse, StreamPart } from '../spec.js';
import { DEFAULT_MAX_TOKENS, toAnthropicParams } from './convert-request.js';
import { fromAnthropicMessage } from './convert-response.js';
import { ANTHROPIC, toProviderError } from './errors.js';
import { convertStream } from './stream.js';

/** Options of {@link AnthropicProvider}. */
export interface AnthropicProviderOptions {
  /** API key; default `ANTHROPIC_API_KEY`. */
  apiKey?: string;
  /** API base URL; default `ANTHROPIC_BASE_URL`, else the SDK's (`https://api.anthropic.com`). */
  baseURL?: string;
  /** The model used when a request names none; default `defaultModelFor('anthropic')`. */
  model?: string;
  /** Per-call timeout in milliseconds: until the response headers arrive, then between stream events. */
  timeoutMs?: number;
  /** A ready SDK client (tests, proxies); `apiKey`, `baseURL` and `timeoutMs` are then ignored. */
  client?: Anthropic;
  /** `max_tokens` when a request sets none (the API requires one). Default 4096. */
  maxTokens?: number;
}

/**
 * The Anthropic Messages API through the official `@anthropic-ai/sdk`, with the SDK's own retries
 * turned off (agentlib retries). Failures are thrown as ProviderError.
 */
export class AnthropicProvider implements Provider {
  readonly name = ANTHROPIC;
  readonly defaultModel: string;
  readonly capabilities: ProviderCapabilities = { tools: true, streaming: true, structuredOutput: true, vision: true, embeddings: false };
  readonly client: Anthropic;
  readonly #maxTokens: number;
  readonly #timeoutMs: number | undefined;

  constructor(options: AnthropicProviderOptions = {}) {
    this.defaultModel = options.model ?? defaultModelFor('anthropic');
    this.#maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
    this.#timeoutMs = options.timeoutMs;
    this.client = options.client ?? createClient(options);
  }

  async complete(request: ProviderRequest): Promise<ProviderResponse> {
    const model = request.model || this.defaultModel;
    const params = toAnthropicParams({ ...request, model }, this.#maxTokens);
    try {
      const { data, request_id } = await this.client.messages.create({ ...params, stream: false }, this.#requestOptions(request)).withResponse();
      return fromAnthropicMessage(data, request_id);
    } catch (error) {
      throw toProviderError(error, model, request.signal);
    }
  }

  async *stream(request: ProviderRequest): AsyncGenerator<StreamPart> {
    const model = request.model || this.defaultModel;
    const params = toAnthropicParams({ ...request, model }, this.#maxTokens);
    let opened;
    try {
      opened = await this.client.messages.create({ ...params, stream: true }, this.#requestOptions(request)).withResponse();
    } catch (error) {
      throw toProviderError(error, model, request.signal);
    }
    const events = opened.data;
    yield* convertStream(events, { model, requestId: opened.request_id, signal: request.signal, idleTimeoutMs: this.#timeoutMs, cancel: () => events.controller.abort() });
  }

  #requestOptions(request: ProviderRequest): { signal?: AbortSignal; timeout?: number } {
    const options: { signal?: AbortSignal; timeout?: number } = {};
    if (request.signal) options.signal = request.signal;
    if (this.#timeoutMs !== undefined) options.timeout = this.#timeoutMs;
    return options;
  }
}

function createClient(options: AnthropicProviderOptions): Anthropic {
  const apiKey = options.apiKey ?? process.env['ANTHROPIC_API_KEY'];
  if (!apiKey) {
    throw new ProviderConfigurationError('Anthropic API key missing: pass apiKey or set ANTHROPIC_API_KEY', { provider: ANTHROPIC });
  }
  const baseURL = options.baseURL ?? process.env['ANTHROPIC_BASE_URL'];
  const clientOptions: ConstructorParameters<typeof Anthropic>[0] = { apiKey, maxRetries: 0 };
  if (baseURL) clientOptions.baseURL = baseURL;
  if (options.timeoutMs !== undefined) clientOptions.timeout = options.timeoutMs;
  return new Anthropic(clientOptions);
}
