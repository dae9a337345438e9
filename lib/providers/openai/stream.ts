import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { providerTransportError } from '../provider-errors.js';
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

function malformed(source: Pick<ChunkSource, 'provider' | 'model'>, what: string): Error {
  return providerTransportError(source.provider, 'stream', `malformed stream chunk: ${what}`, { model: source.model });
}

/**
 * Turns Chat Completions chunks into StreamParts, synchronously (the provider's stream is then a
 * single async generator): text and reasoning deltas as they come, tool calls assembled by `index`
 * (names assigned, arguments concatenated) and emitted whole when the choice finishes with
 * `tool_calls` or `stop`, usage from the final `choices: []` chunk, then `finish`. A stream that
 * ends without a finish reason throws a ProviderError.
 */
export class ChunkAssembler {
  readonly #calls = new Map<number, PendingCall>();
  #finish: string | null | undefined;
  #refused = false;
  #usage: CompletionUsage | undefined;
  #model: string | undefined;

  constructor(private readonly source: Omit<ChunkSource, 'chunks'>) {}

  /** Adds the parts one chunk yields to `out`. */
  push(chunk: ChatCompletionChunk, out: StreamPart[]): void {
    if (typeof chunk !== 'object' || chunk === null || !Array.isArray(chunk.choices)) throw malformed(this.source, 'no choices array');
    if (chunk.model) this.#model = chunk.model;
    if (chunk.usage) this.#usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) return;
    const delta = choice.delta ?? {};
    const reasoning = reasoningOf(delta);
    if (reasoning) out.push({ type: 'reasoning-delta', text: reasoning });
    if (typeof delta.content === 'string' && delta.content !== '') out.push({ type: 'text-delta', text: delta.content });
    if (typeof delta.refusal === 'string' && delta.refusal !== '') {
      this.#refused = true;
      out.push({ type: 'text-delta', text: delta.refusal });
    }
    if (delta.tool_calls) {
      for (const part of delta.tool_calls) {
        if (typeof part.index !== 'number') throw malformed(this.source, 'tool call delta without index');
        let pending = this.#calls.get(part.index);
        if (!pending) this.#calls.set(part.index, (pending = { id: '', name: '', args: '' }));
        if (part.id) pending.id = part.id;
        if (part.function?.name) pending.name = part.function.name;
        if (part.function?.arguments) pending.args += part.function.arguments;
      }
    }
    if (choice.finish_reason && this.#finish === undefined) {
      this.#finish = choice.finish_reason;
      if (this.#finish === 'tool_calls' || this.#finish === 'stop') {
        const ordered = [...this.#calls.entries()].sort(([a], [b]) => a - b);
        for (const [index, call] of ordered) {
          if (!call.name) throw malformed(this.source, `tool call ${index} has no name`);
          out.push({ type: 'tool-call', toolCall: toToolCall(call.id || `call_${index}`, call.name, call.args) });
        }
      }
    }
  }

  /** The closing parts (usage, finish); throws when the stream never finished. */
  end(out: StreamPart[]): void {
    if (this.#finish === undefined) {
      throw providerTransportError(this.source.provider, 'stream', 'stream ended without a finish reason (cut short)', { model: this.source.model });
    }
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
  for await (const chunk of source.chunks) {
    source.onChunk?.();
    assembler.push(chunk, out);
    for (const part of out) yield part;
    out.length = 0;
  }
  assembler.end(out);
  yield* out;
}
