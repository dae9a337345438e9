import Anthropic from '@anthropic-ai/sdk';
import { ProviderConfigurationError } from '../../core/errors/provider-configuration-error.js';
import { CallControl } from '../call-control.js';
import { sdkTimeout, streamTimeouts, wholeCallTimeouts, type CallTimeouts, type ProviderTimeoutOptions } from '../call-timeouts.js';
import { defaultModelFor } from '../models/defaults.js';
import type { Provider, ProviderCapabilities, ProviderRequest, ProviderResponse, StreamPart } from '../spec.js';
import { DEFAULT_MAX_TOKENS, MIN_THINKING_BUDGET, toAnthropicParams, type AnthropicThinking } from './convert-request.js';
import { fromAnthropicMessage } from './convert-response.js';
import { ANTHROPIC, toProviderError } from './errors.js';
import { AnthropicEventReader } from './sse-events.js';
import { EventConverter } from './stream.js';

/** Options of {@link AnthropicProvider}. */
export interface AnthropicProviderOptions extends ProviderTimeoutOptions {
  /** API key; default `ANTHROPIC_API_KEY`. */
  apiKey?: string;
  /** API base URL; default `ANTHROPIC_BASE_URL`, else the SDK's (`https://api.anthropic.com`). */
  baseURL?: string;
  /** The model used when a request names none; default `defaultModelFor('anthropic')`. */
  model?: string;
  /**
   * A ready SDK client (tests, proxies); `apiKey` and `baseURL` are then ignored. The timeouts still
   * apply: they are passed with every request.
   */
  client?: Anthropic;
  /** `max_tokens` when a request sets none (the API requires one). Default 4096. */
  maxTokens?: number;
  /**
   * Extended thinking for every request of this provider: `{ budgetTokens }` (manual mode, at least
   * 1024; `max_tokens` at or below the budget is raised to budget + max_tokens, capped at the
   * model's maximum output tokens from the model registry) or `'adaptive'`.
   * With thinking on, `temperature` is not sent (the API rejects any but its default), and the
   * thinking / redacted_thinking blocks of each reply are kept on the assistant message
   * (`reasoningParts`) and sent back unchanged and in place, as the API requires for tool use with
   * thinking. A request whose open tool loop started without thinking (a history recorded without
   * it, a fallback from another provider) is sent without thinking. With `{ budgetTokens }`, a
   * forced tool choice (`required` or a named tool) or a budget that does not fit below the
   * model's maximum output is a ProviderConfigurationError before anything is sent; adaptive
   * thinking allows forced tool choice.
   */
  thinking?: AnthropicThinking;
}

/** Default total timeout of one call (the same as the OpenAI, Gemini and Ollama adapters'). */
export const DEFAULT_ANTHROPIC_TIMEOUT_MS = 600_000;

// The SDK is always given a timeout (sdkTimeout): given none, it refuses a non-streamed request
// whose `max_tokens` might take over 10 minutes ("Streaming is required…") before sending it.

/**
 * The Anthropic Messages API through the official `@anthropic-ai/sdk`, with the SDK's own retries
 * turned off (agentlib retries). Failures are thrown as ProviderError.
 */
export class AnthropicProvider implements Provider {
  readonly name = ANTHROPIC;
  readonly defaultModel: string;
  readonly capabilities: ProviderCapabilities = { tools: true, streaming: true, structuredOutput: true, vision: true, embeddings: false };
  readonly client: Anthropic;
  /** The resolved total timeout of one call in ms (`options.timeoutMs`, default 600000; ≤ 0: none). */
  readonly timeoutMs: number;
  /** The limits of a `stream` call (`complete` has the total only). */
  readonly timeouts: CallTimeouts;
  readonly #maxTokens: number;
  readonly #thinking: AnthropicThinking | undefined;

  constructor(options: AnthropicProviderOptions = {}) {
    this.defaultModel = options.model ?? defaultModelFor('anthropic');
    this.#maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
    this.timeouts = streamTimeouts(options, DEFAULT_ANTHROPIC_TIMEOUT_MS);
    this.timeoutMs = this.timeouts.totalMs;
    this.#thinking = checkThinking(options.thinking);
    this.client = options.client ?? createClient(options, this.timeoutMs);
  }

  /** The client's configured credentials, scrubbed from every error this provider throws. */
  #credentials(): (string | null | undefined)[] {
    const { apiKey, authToken } = this.client as { apiKey?: unknown; authToken?: unknown };
    return [typeof apiKey === 'string' ? apiKey : undefined, typeof authToken === 'string' ? authToken : undefined];
  }

  async complete(request: ProviderRequest): Promise<ProviderResponse> {
    const model = request.model || this.defaultModel;
    const params = toAnthropicParams({ ...request, model }, this.#maxTokens, this.#thinking);
    // One timer for the whole call, body included (the SDK's own timeout ends with the headers).
    const call = new CallControl(request.signal, wholeCallTimeouts(this.timeouts));
    try {
      const { data, request_id } = await this.client.messages.create({ ...params, stream: false }, this.#requestOptions(call)).withResponse();
      return fromAnthropicMessage(data, request_id);
    } catch (error) {
      throw toProviderError(error, model, request.signal, call, this.#credentials());
    } finally {
      call.dispose();
    }
  }

  async *stream(request: ProviderRequest): AsyncGenerator<StreamPart> {
    const model = request.model || this.defaultModel;
    const params = toAnthropicParams({ ...request, model }, this.#maxTokens, this.#thinking);
    // One timer for the whole call (total, first byte, then the silences), not one per event.
    const call = new CallControl(request.signal, this.timeouts);
    const converter = new EventConverter(model);
    let finished = false;
    try {
      // The SDK sends the request and maps an error status; agentlib decodes the event stream
      // (AnthropicEventReader, decision 0007): one promise per network read, events parsed as taken.
      // The headers are not the first byte of the reply: the first-byte wait runs on.
      const response = await this.client.messages.create({ ...params, stream: true }, this.#requestOptions(call)).asResponse();
      const events = new AnthropicEventReader(response);
      const signal = call.signal;
      reading: while (await events.read()) {
        call.touch();
        for (let event = events.next(); event !== undefined; event = events.next()) {
          // An abort or a timeout must not pass for the end, nor let events already read through.
          if (signal.aborted) break reading;
          // Each event counts as activity: a slow consumer of events already read is not silence.
          call.touch();
          const part = converter.accept(event);
          if (part) yield part;
        }
      }
      if (signal.aborted) throw signal.reason;
      const [usage, finish] = converter.end(response.headers.get('request-id'));
      yield usage;
      yield finish;
      finished = true;
    } catch (error) {
      throw toProviderError(error, converter.model, request.signal, call, this.#credentials());
    } finally {
      // A consumer that stops early must not leave the HTTP stream open.
      if (!finished) call.abort();
      call.dispose();
    }
  }

  #requestOptions(call: CallControl): { signal: AbortSignal; timeout: number } {
    return { signal: call.signal, timeout: sdkTimeout(this.timeoutMs) };
  }
}

/** Validates the `thinking` option: `'adaptive'`, or a budget that is an integer of at least 1024. */
function checkThinking(thinking: AnthropicThinking | undefined): AnthropicThinking | undefined {
  if (thinking === undefined || thinking === 'adaptive') return thinking;
  const budget: unknown = typeof thinking === 'object' && thinking !== null ? thinking.budgetTokens : undefined;
  if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < MIN_THINKING_BUDGET) {
    throw new ProviderConfigurationError(
      `Anthropic thinking: budgetTokens must be an integer of at least ${MIN_THINKING_BUDGET} (got ${JSON.stringify(budget)}); or pass 'adaptive'`,
      { provider: ANTHROPIC },
    );
  }
  return { budgetTokens: budget };
}

function createClient(options: AnthropicProviderOptions, timeoutMs: number): Anthropic {
  const apiKey = options.apiKey ?? process.env['ANTHROPIC_API_KEY'];
  if (!apiKey) {
    throw new ProviderConfigurationError('Anthropic API key missing: pass apiKey or set ANTHROPIC_API_KEY', { provider: ANTHROPIC, keyVariables: ['ANTHROPIC_API_KEY'] });
  }
  const baseURL = options.baseURL ?? process.env['ANTHROPIC_BASE_URL'];
  const clientOptions: ConstructorParameters<typeof Anthropic>[0] = { apiKey, maxRetries: 0, timeout: sdkTimeout(timeoutMs) };
  if (baseURL) clientOptions.baseURL = baseURL;
  return new Anthropic(clientOptions);
}
