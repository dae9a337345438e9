import { ConfigurationError } from '../core/errors/configuration-error.js';
import { ProviderError } from '../core/errors/provider-error.js';
import { isRetryableError } from './retry.js';
import type { EmbedRequest, EmbedResponse, Provider, ProviderCapabilities, ProviderNotice, ProviderRequest, ProviderResponse, StreamPart } from './spec.js';
import { CircuitBreaker } from './circuit-breaker.js';

/** One provider of a fallback chain, optionally with its own model and a label for events. */
export interface FallbackEntry {
  provider: Provider;
  /** The model this provider is called with. Default: the provider's own default model. */
  model?: string;
  /** Name used in events and `providerUsed` (default: the provider's name). */
  label?: string;
}

/** Options of a FallbackProvider. */
export interface FallbackOptions {
  /** Consecutive failures after which a provider is skipped. Default 3. */
  circuitBreakerThreshold?: number;
  /** How long a tripped provider is skipped, in ms. Default 60 000. */
  circuitBreakerCooldownMs?: number;
  /** Called on every failover. */
  onFallback?: (info: { from: string; to: string; error: unknown }) => void;
  /** Clock for the circuit breaker (tests). */
  now?: () => number;
}

interface Slot {
  provider: Provider;
  model: string;
  label: string;
  breaker: CircuitBreaker;
}

/** Output parts: once one of these was yielded, a failing stream is not failed over (no duplicated text). */
const OUTPUT = new Set<StreamPart['type']>(['text-delta', 'reasoning-delta', 'reasoning-part', 'tool-call']);

/**
 * Whether a failure moves on to the next provider: any retryable failure, and a 429 that is not
 * retryable (a `quota` / billing refusal: retrying this provider cannot help, another one can).
 */
export function isFailoverError(error: unknown): boolean {
  if (isRetryableError(error)) return true;
  return ProviderError.isInstance(error) && (error.kind === 'quota' || error.status === 429);
}

/**
 * Tries providers in priority order. Fails over on retryable failures (timeouts, 408, 429, 5xx, 529,
 * connection errors, "overloaded") and on quota refusals (429 `quota`, not retried but another
 * provider can answer); rethrows at once on others (400, 401, 404: the next provider would fail the
 * same way or hide a configuration error). A provider that failed `circuitBreakerThreshold`
 * times in a row is skipped for the cooldown (when every provider is tripped, all are tried anyway).
 * Each entry is called with its own model, never another provider's. A stream that fails before any
 * output fails over; after output it rethrows; success is recorded once the stream is consumed.
 */
export class FallbackProvider implements Provider {
  readonly name = 'fallback';
  readonly defaultModel: string;
  readonly capabilities: ProviderCapabilities;
  readonly #slots: Slot[];
  readonly #onFallback: FallbackOptions['onFallback'];

  constructor(entries: readonly (Provider | FallbackEntry)[], options: FallbackOptions = {}) {
    if (entries.length === 0) throw new ConfigurationError('FallbackProvider needs at least one provider', { key: 'providers' });
    const threshold = options.circuitBreakerThreshold ?? 3;
    const cooldownMs = options.circuitBreakerCooldownMs ?? 60_000;
    const now = options.now ?? Date.now;
    this.#slots = entries.map((entry) => {
      const { provider, model, label } = 'provider' in entry ? entry : { provider: entry, model: undefined, label: undefined };
      return { provider, model: model ?? provider.defaultModel, label: label ?? provider.name, breaker: new CircuitBreaker(threshold, cooldownMs, now) };
    });
    const first = this.#slots[0] as Slot;
    this.defaultModel = first.model;
    this.capabilities = {
      tools: this.#slots.every((s) => s.provider.capabilities.tools),
      streaming: this.#slots.every((s) => s.provider.capabilities.streaming),
      structuredOutput: this.#slots.every((s) => s.provider.capabilities.structuredOutput),
      vision: this.#slots.every((s) => s.provider.capabilities.vision),
      embeddings: this.#slots.some((s) => s.provider.capabilities.embeddings),
    };
    this.#onFallback = options.onFallback;
  }

  /** The providers in priority order with their circuit state (for diagnostics). */
  status(): { label: string; model: string; open: boolean; failures: number }[] {
    return this.#slots.map((s) => ({ label: s.label, model: s.model, open: s.breaker.isOpen(), failures: s.breaker.failures }));
  }

  /** A request's model goes to the first provider only when the caller chose one; others use their own. */
  #requestFor(slot: Slot, index: number, request: ProviderRequest): ProviderRequest {
    const model = index === 0 && request.model !== this.defaultModel ? request.model : slot.model;
    return { ...request, model };
  }

  #order(): { slot: Slot; index: number }[] {
    const all = this.#slots.map((slot, index) => ({ slot, index }));
    const closed = all.filter(({ slot }) => !slot.breaker.isOpen());
    return closed.length > 0 ? closed : all;
  }

  #failover(request: { onNotice?: (notice: ProviderNotice) => void }, from: Slot, to: Slot | undefined, error: unknown): void {
    if (!to) return;
    this.#onFallback?.({ from: from.label, to: to.label, error });
    request.onNotice?.({ type: 'provider-fallback', from: from.label, to: to.label, error });
  }

  async complete(request: ProviderRequest): Promise<ProviderResponse> {
    const order = this.#order();
    for (const [position, { slot, index }] of order.entries()) {
      const call = this.#requestFor(slot, index, request);
      try {
        const response = await slot.provider.complete(call);
        slot.breaker.success();
        return { ...response, provider: response.provider ?? slot.label, model: response.model ?? call.model };
      } catch (error) {
        if (request.signal?.aborted || !isFailoverError(error)) throw error;
        slot.breaker.failure();
        const next = order[position + 1]?.slot;
        if (!next) throw error;
        this.#failover(request, slot, next, error);
      }
    }
    throw new ConfigurationError('FallbackProvider has no provider to call');
  }

  async *stream(request: ProviderRequest): AsyncIterable<StreamPart> {
    const order = this.#order();
    for (const [position, { slot, index }] of order.entries()) {
      const call = this.#requestFor(slot, index, request);
      let produced = false;
      try {
        for await (const part of slot.provider.stream(call)) {
          if (OUTPUT.has(part.type)) produced = true;
          yield part.type === 'finish' ? { ...part, provider: part.provider ?? slot.label, model: part.model ?? call.model } : part;
        }
        slot.breaker.success();
        return;
      } catch (error) {
        if (produced || request.signal?.aborted || !isFailoverError(error)) {
          if (isFailoverError(error)) slot.breaker.failure();
          throw error;
        }
        slot.breaker.failure();
        const next = order[position + 1]?.slot;
        if (!next) throw error;
        this.#failover(request, slot, next, error);
      }
    }
  }

  /**
   * Embeddings from the entries that support them, with the same failover rules, circuit breakers
   * and `provider-fallback` notices (through `request.onNotice`) as `complete`. An explicit
   * `request.model` (an embedding model id is provider-specific) goes to the first of them only;
   * the others use their own default embedding model. One attempt per entry: retries belong to
   * the caller (`embedWithRetry`).
   */
  async embed(request: EmbedRequest): Promise<EmbedResponse> {
    const capable = (list: { slot: Slot; index: number }[]) => list.filter(({ slot }) => typeof slot.provider.embed === 'function');
    if (capable(this.#slots.map((slot, index) => ({ slot, index }))).length === 0) {
      throw new ConfigurationError('No provider of this FallbackProvider supports embeddings');
    }
    const open = capable(this.#order());
    const order = open.length > 0 ? open : capable(this.#slots.map((slot, index) => ({ slot, index })));
    const first = this.#slots.find((s) => typeof s.provider.embed === 'function');
    for (const [position, { slot }] of order.entries()) {
      const call: EmbedRequest = { ...request };
      if (slot !== first) delete call.model;
      try {
        const response = await (slot.provider as Required<Pick<Provider, 'embed'>>).embed(call);
        slot.breaker.success();
        return response;
      } catch (error) {
        if (request.signal?.aborted || !isFailoverError(error)) throw error;
        slot.breaker.failure();
        const next = order[position + 1]?.slot;
        if (!next) throw error;
        this.#failover(request, slot, next, error);
      }
    }
    throw new ConfigurationError('FallbackProvider has no provider to call');
  }
}
