import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { ProviderError } from '../../core/errors/provider-error.js';
import { providerTransportError, transportFailureKind } from '../provider-errors.js';
import type { FinishReason, StreamPart } from '../spec.js';
import { reasoningOf, toFinishReason, toToolCall, toUsage } from './convert-response.js';

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

/** Where the chunks come from and what to say when they are wrong. */
export interface ChunkSource {
  chunks: AsyncIterable<ChatCompletionChunk>;
  provider: string;
  model: string;
  requestId?: string | undefined;
  /** Called on every chunk (restarts the silence timer). */
  onChunk?: () => void;
}

/**
 * A dropped connection or a network / silence timeout: a mapped `connection` / `timeout`
 * ProviderError, or a raw transport failure. Not a caller abort, not an error the server sent.
 */
export function isBrokenTransport(error: unknown): boolean {
  if (ProviderError.isInstance(error)) return error.kind === 'connection' || error.kind === 'timeout';
  return transportFailureKind(error) !== undefined;
}

function malformed(source: Pick<ChunkSource, 'provider' | 'model'>, what: string): Error {
  return providerTransportError(source.provider, 'stream', `malformed stream chunk: ${what}`, { model: source.model });
}

/**
 * Turns Chat Completions chunks into StreamParts, synchronously (the provider's stream is then a
 * single async generator): text and reasoning deltas as they come, tool calls assembled from their
 * deltas (names assigned, arguments concatenated) and emitted whole, in the order they started,
 * when the choice finishes with `tool_calls` or `stop`, usage from the final `choices: []` chunk,
 * then `finish`. A stream that ends without a finish reason throws a ProviderError.
 *
 * A stream cut after its finish reason but before the usage chunk (docs/providers.md, "OpenAI:
 * error codes and streams cut short"): once output was emitted the answer is complete, so it ends
 * normally without a `usage` part (the agent then estimates usage and marks it `estimated`), also
 * when the cut was a dropped connection or a silence timeout (see `completeAfterBreak`); with no
 * output yet it is a retryable `stream` error when the server had promised usage (`"usage": null`
 * on its chunks), since a retry duplicates nothing and gets the real counts.
 *
 * Deltas are keyed by `index`; a delta without `index` (Gemini's OpenAI-compatible endpoint, some
 * proxies) is keyed by its `id`, or continues the last open call when it has no id either. A delta
 * at a known index with a new, different `id` while that call already has a name starts a new call
 * (proxies that put parallel calls all at index 0).
 */
export class ChunkAssembler {
  /** Calls in the order they started. */
  readonly #calls: PendingCall[] = [];
  readonly #byIndex = new Map<number, PendingCall>();
  readonly #byId = new Map<string, PendingCall>();
  #last: PendingCall | undefined;
  #finish: string | null | undefined;
  #refused = false;
  #usage: CompletionUsage | undefined;
  #model: string | undefined;
  /** Output parts (text, reasoning, tool calls) were emitted. */
  #emitted = false;
  /** A chunk carried `"usage": null`: the server honours include_usage, so a usage chunk will follow. */
  #usagePromised = false;

  constructor(private readonly source: Omit<ChunkSource, 'chunks'>) {}

  #open(): PendingCall {
    const call: PendingCall = { id: '', name: '', args: '' };
    this.#calls.push(call);
    return call;
  }

  /** The pending call a tool-call delta belongs to (a new one when it starts a call). */
  #callFor(part: { index?: number | undefined; id?: string | undefined }): PendingCall {
    const id = typeof part.id === 'string' && part.id !== '' ? part.id : undefined;
    if (typeof part.index === 'number') {
      let call = this.#byIndex.get(part.index);
      if (!call || (id !== undefined && call.id !== '' && call.id !== id && call.name !== '')) {
        call = (id !== undefined ? this.#byId.get(id) : undefined) ?? this.#open();
        this.#byIndex.set(part.index, call);
      }
      return call;
    }
    if (id !== undefined) return this.#byId.get(id) ?? this.#open();
    return this.#last ?? this.#open();
  }

  /** Adds the parts one chunk yields to `out`. */
  push(chunk: ChatCompletionChunk, out: StreamPart[]): void {
    if (typeof chunk !== 'object' || chunk === null || !Array.isArray(chunk.choices)) throw malformed(this.source, 'no choices array');
    if (chunk.model) this.#model = chunk.model;
    if (chunk.usage) this.#usage = chunk.usage;
    else if (chunk.usage === null) this.#usagePromised = true;
    const choice = chunk.choices[0];
    if (!choice) return;
    const before = out.length;
    this.#pushChoice(choice, out);
    if (out.length > before) this.#emitted = true;
  }

  #pushChoice(choice: ChatCompletionChunk['choices'][number], out: StreamPart[]): void {
    const delta = choice.delta ?? {};
    const reasoning = reasoningOf(delta);
    if (reasoning) out.push({ type: 'reasoning-delta', text: reasoning });
    if (typeof delta.content === 'string' && delta.content !== '') out.push({ type: 'text-delta', text: delta.content });
    if (typeof delta.refusal === 'string' && delta.refusal !== '') {
      this.#refused = true;
      out.push({ type: 'text-delta', text: delta.refusal });
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const part of delta.tool_calls as (Partial<(typeof delta.tool_calls)[number]> | null)[]) {
        if (typeof part !== 'object' || part === null) throw malformed(this.source, 'tool call delta is not an object');
        const pending = this.#callFor(part);
        if (part.id) {
          pending.id = part.id;
          this.#byId.set(part.id, pending);
        }
        // Some servers repeat the name on every delta: it is assigned, never concatenated.
        if (part.function?.name) pending.name = part.function.name;
        if (part.function?.arguments) pending.args += part.function.arguments;
        this.#last = pending;
      }
    }
    if (choice.finish_reason && this.#finish === undefined) {
      this.#finish = choice.finish_reason;
      if (this.#finish === 'tool_calls' || this.#finish === 'stop') {
        for (const [position, call] of this.#calls.entries()) {
          if (!call.name) throw malformed(this.source, `tool call ${position} has no name`);
          out.push({ type: 'tool-call', toolCall: toToolCall(call.id || `call_${position}`, call.name, call.args) });
        }
      }
    }
  }

  /**
   * The closing parts (usage when it arrived, finish) at the end of the chunks. Throws a retryable
   * `stream` error when the stream never finished, or when it finished without output and was cut
   * before the usage chunk the server had promised.
   */
  end(out: StreamPart[]): void {
    if (this.#finish === undefined) {
      throw providerTransportError(this.source.provider, 'stream', 'stream ended without a finish reason (cut short)', { model: this.source.model });
    }
    if (!this.#usage && this.#usagePromised && !this.#emitted) {
      throw providerTransportError(this.source.provider, 'stream', 'stream cut after its finish reason, before the usage chunk (no output yet)', { model: this.source.model });
    }
    this.#closingParts(out);
  }

  /**
   * After the transport broke (a dropped connection, a silence timeout): when the finish reason
   * had arrived and output was emitted (or the usage chunk arrived), the reply is complete, so
   * this adds the closing parts (no `usage` part unless it arrived) and returns true; otherwise
   * it returns false and the failure stands.
   */
  completeAfterBreak(out: StreamPart[]): boolean {
    if (this.#finish === undefined || (!this.#emitted && !this.#usage)) return false;
    this.#closingParts(out);
    return true;
  }

  #closingParts(out: StreamPart[]): void {
    if (this.#usage) out.push({ type: 'usage', usage: toUsage(this.#usage) });
    const finishReason: FinishReason = this.#refused ? 'refusal' : toFinishReason(this.#finish);
    const part: Extract<StreamPart, { type: 'finish' }> = { type: 'finish', finishReason };
    if (this.#model) part.model = this.#model;
    if (this.source.requestId) part.requestId = this.source.requestId;
    out.push(part);
  }
}

/** The assembler as an async generator over a chunk source (for callers that hold a chunk stream). */
export async function* chunksToParts(source: ChunkSource): AsyncGenerator<StreamPart> {
  const assembler = new ChunkAssembler(source);
  const out: StreamPart[] = [];
  try {
    for await (const chunk of source.chunks) {
      source.onChunk?.();
      assembler.push(chunk, out);
      for (const part of out) yield part;
      out.length = 0;
    }
  } catch (error) {
    out.length = 0;
    // A dropped connection or a network timeout after the finish reason does not undo a complete answer.
    if (!isBrokenTransport(error) || !assembler.completeAfterBreak(out)) throw error;
    yield* out;
    return;
  }
  assembler.end(out);
  yield* out;
}
