import { ProviderError } from '../core/errors/provider-error.js';
import { assistantMessage } from '../core/message.js';
import { sleep } from '../core/sleep.js';
import { hashEmbedding } from './scripted-embed.js';
import { recordableRequest, replyUsage, resolveReply, splitChunks, type ResolvedReply } from './scripted-reply.js';
import type { ScriptedProviderOptions, ScriptedReply, ScriptedResponder } from './scripted-types.js';
import type {
  EmbedRequest,
  EmbedResponse,
  Provider,
  ProviderCapabilities,
  ProviderRequest,
  ProviderResponse,
  ProviderUsage,
  StreamPart,
} from './spec.js';

export type { ScriptedProviderOptions, ScriptedReply, ScriptedReplyObject, ScriptedResponder, ScriptedToolCall } from './scripted-types.js';

const ALL_CAPABILITIES: ProviderCapabilities = { tools: true, streaming: true, structuredOutput: true, vision: true, embeddings: true };

/** Throws a scripted error as given (it may be any value). */
function raise(error: unknown): never {
  throw error;
}

/** Waits `ms` (if any), rejecting promptly with the signal's reason when it aborts. */
async function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  if (ms > 0) await sleep(ms, signal);
}

/**
 * A deterministic provider for tests, examples and benchmarks: hands out scripted replies in
 * order (then asks `respond`, if given), records every request, streams text in small deltas,
 * and honours `request.signal`. Tool calls without an id get `call_1`, `call_2`, …
 *
 * ```ts
 * const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Rome' } }] }, 'Sunny.'] });
 * ```
 */
export class ScriptedProvider implements Provider {
  readonly name: string;
  readonly defaultModel: string;
  readonly capabilities: ProviderCapabilities;
  /** Every chat request received (a clone without `signal` / `onNotice`), unless `record: false`. */
  readonly requests: ProviderRequest[] = [];
  /** Every embeddings request received (a clone without `signal` / `onNotice`), unless `record: false`. */
  readonly embedRequests: EmbedRequest[] = [];
  readonly #replies: ScriptedReply[];
  readonly #respond: ScriptedResponder | undefined;
  readonly #loop: boolean;
  readonly #delayMs: number;
  readonly #usage: ProviderUsage | undefined;
  readonly #record: boolean;
  readonly #dimensions: number;
  #cursor = 0;
  #calls = 0;
  #embedCalls = 0;
  #ids = 0;

  constructor(options: ScriptedProviderOptions = {}) {
    this.name = options.name ?? 'scripted';
    this.defaultModel = options.defaultModel ?? 'scripted-model';
    this.capabilities = { ...ALL_CAPABILITIES, ...options.capabilities };
    this.#replies = [...(options.replies ?? [])];
    this.#respond = options.respond;
    this.#loop = options.loop ?? false;
    this.#delayMs = options.delayMs ?? 0;
    this.#usage = options.usage;
    this.#record = options.record ?? true;
    this.#dimensions = options.embeddingDimensions ?? 64;
  }

  /** Number of `complete` / `stream` calls so far. */
  get calls(): number {
    return this.#calls;
  }

  /** Number of `embed` calls so far. */
  get embedCalls(): number {
    return this.#embedCalls;
  }

  /** Scripted replies not handed out yet. */
  get remaining(): number {
    return this.#replies.length - this.#cursor;
  }

  /** Appends replies to the script. */
  push(...replies: ScriptedReply[]): this {
    this.#replies.push(...replies);
    return this;
  }

  /** Forgets recorded requests and counters and rewinds the script to its first reply. */
  reset(): void {
    this.requests.length = 0;
    this.embedRequests.length = 0;
    this.#cursor = 0;
    this.#calls = 0;
    this.#embedCalls = 0;
    this.#ids = 0;
  }

  async complete(request: ProviderRequest): Promise<ProviderResponse> {
    const reply = await this.#next(request);
    const { source } = reply;
    await wait(source.delayMs ?? this.#delayMs, request.signal);
    if (source.error !== undefined) raise(source.error);
    const response: ProviderResponse = {
      message: assistantMessage(reply.text, reply.toolCalls),
      usage: replyUsage(request, reply, this.#usage),
      finishReason: reply.finishReason,
      model: source.model ?? (request.model || this.defaultModel),
    };
    if (reply.reasoning) response.reasoning = reply.reasoning;
    return response;
  }

  async *stream(request: ProviderRequest): AsyncGenerator<StreamPart, void, undefined> {
    const reply = await this.#next(request);
    const { source } = reply;
    const { signal } = request;
    await wait(source.delayMs ?? this.#delayMs, signal);
    const failAfter = source.errorAfterChunks;
    if (source.error !== undefined && failAfter === undefined) raise(source.error);
    for (const text of splitChunks(reply.reasoning)) yield { type: 'reasoning-delta', text };
    let emitted = 0;
    for (const text of source.chunks ?? splitChunks(reply.text)) {
      if (failAfter !== undefined && emitted >= failAfter) throw this.#streamError(reply, emitted);
      await wait(source.chunkDelayMs ?? 0, signal);
      yield { type: 'text-delta', text };
      emitted += 1;
    }
    if (failAfter !== undefined) throw this.#streamError(reply, emitted);
    signal?.throwIfAborted();
    for (const toolCall of reply.toolCalls) yield { type: 'tool-call', toolCall };
    yield { type: 'usage', usage: replyUsage(request, reply, this.#usage) };
    yield { type: 'finish', finishReason: reply.finishReason, model: source.model ?? (request.model || this.defaultModel) };
  }

  /** Deterministic hash-based unit vectors (texts sharing words are similar). */
  async embed(request: EmbedRequest): Promise<EmbedResponse> {
    request.signal?.throwIfAborted();
    this.#embedCalls += 1;
    if (this.#record) {
      const { signal: _signal, onNotice: _onNotice, ...rest } = request;
      this.embedRequests.push({ ...rest, texts: [...request.texts] });
    }
    const dimensions = request.dimensions ?? this.#dimensions;
    let tokens = 0;
    for (const text of request.texts) tokens += Math.ceil(text.length / 4);
    return {
      embeddings: request.texts.map((text) => hashEmbedding(text, dimensions)),
      usage: { tokens },
      model: request.model ?? 'scripted-embedding',
    };
  }

  /** Counts and records the request, then picks its reply. */
  async #next(request: ProviderRequest): Promise<ResolvedReply> {
    const index = this.#calls;
    this.#calls += 1;
    if (this.#record) this.requests.push(recordableRequest(request));
    return resolveReply(await this.#pick(request, index), () => `call_${++this.#ids}`);
  }

  #pick(request: ProviderRequest, index: number): ScriptedReply | Promise<ScriptedReply> {
    if (this.#loop && this.#cursor >= this.#replies.length && this.#replies.length > 0) this.#cursor = 0;
    const scripted = this.#replies[this.#cursor];
    if (scripted !== undefined) {
      this.#cursor += 1;
      return scripted;
    }
    if (this.#respond) return this.#respond(request, index);
    throw new Error(
      `ScriptedProvider "${this.name}": no reply scripted for request index ${index} ` +
        `(${this.#replies.length} ${this.#replies.length === 1 ? 'reply was' : 'replies were'} scripted). ` +
        'Add replies with push() or pass a respond() function.',
    );
  }

  #streamError(reply: ResolvedReply, emitted: number): unknown {
    return reply.source.error ?? new ProviderError(`scripted stream failed after ${emitted} chunks`, { provider: this.name, kind: 'stream' });
  }
}
