import type { RawMessageStreamEvent, StopReason } from '@anthropic-ai/sdk/resources/messages/messages';
import { providerTransportError } from '../provider-errors.js';
import type { StreamPart } from '../spec.js';
import { mapStopReason, mapUsage, type AnthropicUsageLike } from './convert-response.js';
import { ANTHROPIC, toProviderError } from './errors.js';
import { assembleToolCall } from './tool-input.js';

interface ToolBlock {
  id: string;
  name: string;
  json: string;
}

/** What the stream converter needs besides the events. */
export interface StreamContext {
  model: string;
  requestId?: string | null | undefined;
  signal?: AbortSignal | undefined;
  /** Fail with a timeout error when no event arrives for this long (a stalled stream). */
  idleTimeoutMs?: number | undefined;
  /** Cancels the underlying HTTP stream (called on an idle timeout). */
  cancel?: (() => void) | undefined;
}

const IDLE = Symbol('idle');

/** The next event, or IDLE when none arrives within `ms`. */
async function nextWithin<T>(iterator: AsyncIterator<T>, ms: number | undefined): Promise<IteratorResult<T> | typeof IDLE> {
  if (ms === undefined) return iterator.next();
  let timer: NodeJS.Timeout | undefined;
  const idle = new Promise<typeof IDLE>((resolve) => (timer = setTimeout(() => resolve(IDLE), ms)));
  try {
    return await Promise.race([iterator.next(), idle]);
  } finally {
    clearTimeout(timer);
  }
}

function mergeUsage(into: AnthropicUsageLike, from: AnthropicUsageLike | null | undefined): void {
  if (!from) return;
  if (from.input_tokens != null) into.input_tokens = from.input_tokens;
  if (from.output_tokens != null) into.output_tokens = from.output_tokens;
  if (from.cache_read_input_tokens != null) into.cache_read_input_tokens = from.cache_read_input_tokens;
  if (from.cache_creation_input_tokens != null) into.cache_creation_input_tokens = from.cache_creation_input_tokens;
}

/** A state machine turning raw Messages API stream events into StreamParts. */
class EventConverter {
  readonly usage: AnthropicUsageLike = {};
  readonly tools = new Map<number, ToolBlock>();
  stopReason: StopReason | null = null;
  model: string;
  started = false;
  stopped = false;

  constructor(model: string) {
    this.model = model;
  }

  *accept(event: RawMessageStreamEvent): Generator<StreamPart> {
    switch (event.type) {
      case 'message_start':
        this.started = true;
        if (event.message.model) this.model = event.message.model;
        mergeUsage(this.usage, event.message.usage);
        break;
      case 'content_block_start':
        this.requireStarted(event.type);
        if (event.content_block.type === 'tool_use') {
          const { id, name, input } = event.content_block;
          const preset = input && typeof input === 'object' && Object.keys(input).length > 0 ? JSON.stringify(input) : '';
          this.tools.set(event.index, { id, name, json: preset });
        }
        break;
      case 'content_block_delta':
        this.requireStarted(event.type);
        yield* this.delta(event.index, event.delta);
        break;
      case 'content_block_stop': {
        this.requireStarted(event.type);
        const tool = this.tools.get(event.index);
        if (tool) {
          this.tools.delete(event.index);
          yield { type: 'tool-call', toolCall: assembleToolCall(tool.id, tool.name, tool.json) };
        }
        break;
      }
      case 'message_delta':
        this.requireStarted(event.type);
        if (event.delta.stop_reason) this.stopReason = event.delta.stop_reason;
        mergeUsage(this.usage, event.usage as AnthropicUsageLike);
        break;
      case 'message_stop':
        this.requireStarted(event.type);
        this.stopped = true;
        break;
      default:
        break;
    }
  }

  private *delta(index: number, delta: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta']): Generator<StreamPart> {
    switch (delta.type) {
      case 'text_delta':
        if (delta.text) yield { type: 'text-delta', text: delta.text };
        break;
      case 'thinking_delta':
        if (delta.thinking) yield { type: 'reasoning-delta', text: delta.thinking };
        break;
      case 'input_json_delta': {
        const tool = this.tools.get(index);
        if (!tool) throw this.broken(`input_json_delta for block ${index}, which is not an open tool_use block`);
        tool.json += delta.partial_json;
        break;
      }
      default:
        break;
    }
  }

  private requireStarted(type: string): void {
    if (!this.started) throw this.broken(`${type} before message_start`);
  }

  broken(message: string): Error {
    return providerTransportError(ANTHROPIC, 'stream', message, { model: this.model });
  }
}

/**
 * Converts the SDK's raw event stream into StreamParts: text and thinking deltas as they come,
 * each tool_use block as one whole `tool-call` at its `content_block_stop`, then `usage`
 * (message_start + message_delta) and `finish`. A stream that ends without `message_stop`, with
 * an `event: error` or with a malformed event throws a ProviderError; an abort rethrows the
 * signal's reason.
 */
export async function* convertStream(events: AsyncIterable<RawMessageStreamEvent>, context: StreamContext): AsyncGenerator<StreamPart> {
  const converter = new EventConverter(context.model);
  const iterator = events[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      const next = await nextWithin(iterator, context.idleTimeoutMs);
      if (next === IDLE) {
        context.cancel?.();
        throw providerTransportError(ANTHROPIC, 'timeout', `no stream event for ${context.idleTimeoutMs} ms`, { model: converter.model });
      }
      if (next.done) break;
      if (!converter.stopped) yield* converter.accept(next.value);
    }
    finished = true;
  } catch (error) {
    throw toProviderError(error, converter.model, context.signal);
  } finally {
    if (!finished) iterator.return?.()?.catch(() => undefined);
  }
  // The SDK ends the iteration quietly when its request is aborted.
  if (context.signal?.aborted) throw context.signal.reason;
  if (!converter.stopped) throw converter.broken('the stream ended without message_stop');
  yield { type: 'usage', usage: mapUsage(converter.usage) };
  const finish: Extract<StreamPart, { type: 'finish' }> = { type: 'finish', finishReason: mapStopReason(converter.stopReason), model: converter.model };
  if (context.requestId) finish.requestId = context.requestId;
  yield finish;
}
