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

function malformed(source: ChunkSource, what: string): Error {
  return providerTransportError(source.provider, 'stream', `malformed stream chunk: ${what}`, { model: source.model });
}

/**
 * Turns Chat Completions chunks into StreamParts: text and reasoning deltas as they come, tool
 * calls assembled by `index` (names assigned, arguments concatenated) and emitted whole when the
 * choice finishes with `tool_calls` or `stop`, usage from the final `choices: []` chunk, then
 * `finish`. A stream that ends without a finish reason throws a ProviderError.
 */
export async function* chunksToParts(source: ChunkSource): AsyncGenerator<StreamPart> {
  const calls = new Map<number, PendingCall>();
  let finish: string | null | undefined;
  let refused = false;
  let usage: CompletionUsage | undefined;
  let model: string | undefined;
  for await (const chunk of source.chunks) {
    source.onChunk?.();
    if (typeof chunk !== 'object' || chunk === null || !Array.isArray(chunk.choices)) throw malformed(source, 'no choices array');
    if (chunk.model) model = chunk.model;
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};
    const reasoning = reasoningOf(delta);
    if (reasoning) yield { type: 'reasoning-delta', text: reasoning };
    if (typeof delta.content === 'string' && delta.content !== '') yield { type: 'text-delta', text: delta.content };
    if (typeof delta.refusal === 'string' && delta.refusal !== '') {
      refused = true;
      yield { type: 'text-delta', text: delta.refusal };
    }
    for (const part of delta.tool_calls ?? []) {
      if (typeof part.index !== 'number') throw malformed(source, 'tool call delta without index');
      let pending = calls.get(part.index);
      if (!pending) calls.set(part.index, (pending = { id: '', name: '', args: '' }));
      if (part.id) pending.id = part.id;
      if (part.function?.name) pending.name = part.function.name;
      if (part.function?.arguments) pending.args += part.function.arguments;
    }
    if (choice.finish_reason && finish === undefined) {
      finish = choice.finish_reason;
      if (finish === 'tool_calls' || finish === 'stop') {
        const ordered = [...calls.entries()].sort(([a], [b]) => a - b);
        for (const [index, call] of ordered) {
          if (!call.name) throw malformed(source, `tool call ${index} has no name`);
          yield { type: 'tool-call', toolCall: toToolCall(call.id || `call_${index}`, call.name, call.args) };
        }
      }
    }
  }
  if (finish === undefined) {
    throw providerTransportError(source.provider, 'stream', 'stream ended without a finish reason (cut short)', { model: source.model });
  }
  if (usage) yield { type: 'usage', usage: toUsage(usage) };
  const finishReason: FinishReason = refused ? 'refusal' : toFinishReason(finish);
  const part: Extract<StreamPart, { type: 'finish' }> = { type: 'finish', finishReason };
  if (model) part.model = model;
  if (source.requestId) part.requestId = source.requestId;
  yield part;
}
