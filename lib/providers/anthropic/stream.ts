import type { RawMessageStreamEvent, StopReason } from '@anthropic-ai/sdk/resources/messages/messages';
import { CallControl } from '../call-control.js';
import { providerTransportError } from '../provider-errors.js';
import type { StreamPart } from '../spec.js';
import { mapStopReason, mapUsage, redactedPart, thinkingPart, type AnthropicUsageLike } from './convert-response.js';
import { ANTHROPIC, toProviderError } from './errors.js';
import { assembleToolCall } from './tool-input.js';

interface ToolBlock {
  id: string;
  name: string;
  json: string;
}

/**
 * An open thinking block (text and signature accumulated from its deltas) or redacted_thinking
 * block; `index` is set when the block came after text or a tool_use block (see thinkingPart).
 */
type ReasoningBlock = { type: 'thinking'; text: string; signature: string; index?: number } | { type: 'redacted'; data: string; index?: number };

/** What the stream converter needs besides the events. */
export interface StreamContext {
  model: string;
  requestId?: string | null | undefined;
  signal?: AbortSignal | undefined;
  /** Fail with a timeout error when no event arrives for this long (a stalled stream). */
  idleTimeoutMs?: number | undefined;
  /** Cancels the underlying HTTP stream (called on an idle timeout or when the consumer stops early). */
  cancel?: (() => void) | undefined;
}

function mergeUsage(into: AnthropicUsageLike, from: AnthropicUsageLike | null | undefined): void {
  if (!from) return;
  if (from.input_tokens != null) into.input_tokens = from.input_tokens;
  if (from.output_tokens != null) into.output_tokens = from.output_tokens;
  if (from.cache_read_input_tokens != null) into.cache_read_input_tokens = from.cache_read_input_tokens;
  if (from.cache_creation_input_tokens != null) into.cache_creation_input_tokens = from.cache_creation_input_tokens;
}

type BlockDelta = Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta'];

/**
 * A synchronous state machine turning raw Messages API stream events into StreamParts (so the
 * provider's stream is a single async generator: no generator and no array per event). An event
 * gives at most one part; events after `message_stop` are ignored.
 */
export class EventConverter {
  readonly usage: AnthropicUsageLike = {};
  readonly tools = new Map<number, ToolBlock>();
  readonly reasoning = new Map<number, ReasoningBlock>();
  stopReason: StopReason | null = null;
  model: string;
  started = false;
  stopped = false;
  /** Whether a text or tool_use block has started (later thinking blocks are interleaved). */
  answered = false;

  constructor(model: string) {
    this.model = model;
  }

  /** The part one event gives, if any. */
  accept(event: RawMessageStreamEvent): StreamPart | undefined {
    if (this.stopped) return undefined;
    switch (event.type) {
      case 'content_block_delta':
        this.requireStarted(event.type);
        return this.delta(event.index, event.delta);
      case 'message_start':
        this.started = true;
        if (event.message.model) this.model = event.message.model;
        mergeUsage(this.usage, event.message.usage);
        break;
      case 'content_block_start': {
        this.requireStarted(event.type);
        const block = event.content_block;
        if (block.type === 'tool_use') {
          const { id, name, input } = block;
          const preset = input && typeof input === 'object' && Object.keys(input).length > 0 ? JSON.stringify(input) : '';
          this.tools.set(event.index, { id, name, json: preset });
          this.answered = true;
        } else if (block.type === 'text') {
          this.answered = true;
        } else if (block.type === 'thinking') {
          const open: ReasoningBlock = { type: 'thinking', text: block.thinking ?? '', signature: block.signature ?? '' };
          if (this.answered) open.index = event.index;
          this.reasoning.set(event.index, open);
          // Text already in the start event (the API sends ''), streamed like any thinking delta.
          if (block.thinking) return { type: 'reasoning-delta', text: block.thinking };
        } else if (block.type === 'redacted_thinking') {
          const open: ReasoningBlock = { type: 'redacted', data: block.data };
          if (this.answered) open.index = event.index;
          this.reasoning.set(event.index, open);
        }
        break;
      }
      case 'content_block_stop': {
        this.requireStarted(event.type);
        const tool = this.tools.get(event.index);
        if (tool) {
          this.tools.delete(event.index);
          return { type: 'tool-call', toolCall: assembleToolCall(tool.id, tool.name, tool.json) };
        }
        const reasoning = this.reasoning.get(event.index);
        if (reasoning) {
          this.reasoning.delete(event.index);
          const part = reasoning.type === 'thinking' ? thinkingPart(reasoning.text, reasoning.signature, reasoning.index) : redactedPart(reasoning.data, reasoning.index);
          return { type: 'reasoning-part', part };
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
    return undefined;
  }

  private delta(index: number, delta: BlockDelta): StreamPart | undefined {
    switch (delta.type) {
      case 'text_delta':
        return delta.text ? { type: 'text-delta', text: delta.text } : undefined;
      case 'thinking_delta': {
        const block = this.reasoning.get(index);
        if (block?.type === 'thinking') block.text += delta.thinking;
        return delta.thinking ? { type: 'reasoning-delta', text: delta.thinking } : undefined;
      }
      case 'signature_delta': {
        const block = this.reasoning.get(index);
        if (block?.type !== 'thinking') throw this.broken(`signature_delta for block ${index}, which is not an open thinking block`);
        block.signature += delta.signature;
        return undefined;
      }
      case 'input_json_delta': {
        const tool = this.tools.get(index);
        if (!tool) throw this.broken(`input_json_delta for block ${index}, which is not an open tool_use block`);
        tool.json += delta.partial_json;
        return undefined;
      }
      default:
        return undefined;
    }
  }

  /** The closing parts (usage, finish); throws when the stream ended without `message_stop`. */
  end(requestId?: string | null): [StreamPart, StreamPart] {
    if (!this.stopped) throw this.broken('the stream ended without message_stop');
    const finish: Extract<StreamPart, { type: 'finish' }> = { type: 'finish', finishReason: mapStopReason(this.stopReason), model: this.model };
    if (requestId) finish.requestId = requestId;
    return [{ type: 'usage', usage: mapUsage(this.usage, this.model) }, finish];
  }

  private requireStarted(type: string): void {
    if (!this.started) throw this.broken(`${type} before message_start`);
  }

  broken(message: string): Error {
    return providerTransportError(ANTHROPIC, 'stream', message, { model: this.model });
  }
}

/**
 * The parts of an event stream whose HTTP request runs on `call.signal` (the provider's stream):
 * every event restarts the call's silence window; an abort or a timeout (the SDK then ends the
 * iteration quietly) is thrown as the abort reason, for the caller to map. Thrown errors are not
 * mapped here.
 */
export async function* streamParts(
  events: AsyncIterable<RawMessageStreamEvent>,
  call: CallControl,
  converter: EventConverter,
  requestId?: string | null,
): AsyncGenerator<StreamPart> {
  const signal = call.signal;
  for await (const event of events) {
    call.touch();
    const part = converter.accept(event);
    // The SDK ends an aborted stream quietly: an abort or a timeout must not pass for the end.
    if (signal.aborted) break;
    if (part) yield part;
  }
  if (signal.aborted) throw signal.reason;
  yield* converter.end(requestId);
}

/**
 * Converts the SDK's raw event stream into StreamParts: text and thinking deltas as they come,
 * each tool_use block as one whole `tool-call` and each thinking / redacted_thinking block as one
 * `reasoning-part` (signature and data as received) at its `content_block_stop`, then `usage`
 * (message_start + message_delta) and `finish`. A stream that ends without `message_stop`, with
 * an `event: error` or with a malformed event throws a ProviderError; an abort rethrows the
 * signal's reason; `idleTimeoutMs` without an event gives a timeout ProviderError (one silence
 * timer per stream, see CallControl) and calls `cancel`.
 */
export async function* convertStream(events: AsyncIterable<RawMessageStreamEvent>, context: StreamContext): AsyncGenerator<StreamPart> {
  const idle = context.idleTimeoutMs ?? 0;
  const call = new CallControl(context.signal, { totalMs: 0, firstByteMs: idle, idleMs: idle });
  const iterator = events[Symbol.asyncIterator]();
  // One promise per stream that settles when the call is aborted (timeout or caller), raced
  // against each next() so an iterator that ignores `cancel` cannot hang the stream.
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      context.cancel?.();
      reject(call.signal.reason as Error);
    };
    if (call.signal.aborted) onAbort();
    else call.signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  const guarded: AsyncIterable<RawMessageStreamEvent> = {
    [Symbol.asyncIterator]: () => ({ next: () => Promise.race([iterator.next(), aborted]) }),
  };
  const converter = new EventConverter(context.model);
  let finished = false;
  try {
    yield* streamParts(guarded, call, converter, context.requestId);
    finished = true;
  } catch (error) {
    throw toProviderError(error, converter.model, context.signal, call);
  } finally {
    if (onAbort) call.signal.removeEventListener('abort', onAbort);
    if (!finished) {
      context.cancel?.();
      iterator.return?.()?.catch(() => undefined);
    }
    call.dispose();
  }
}
