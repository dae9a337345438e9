import type { ChatRequest } from 'ollama';
import { providerTransportError } from '../provider-errors.js';
import type { StreamPart } from '../spec.js';
import type { OllamaCall } from './call.js';
import { textOf, toFinishReason, toolCallsOf, toUsage, type WireChatChunk } from './convert-response.js';
import { OLLAMA, toOllamaError } from './errors.js';

/**
 * Streams one `/api/chat` call: NDJSON objects → text / reasoning deltas, whole tool calls, then
 * `usage` and `finish` from the final `done: true` line. Any failure (an `{"error"}` line, a
 * malformed line, a stream cut before `done`, a timeout) is thrown as a typed ProviderError.
 */
export async function* streamChat(call: OllamaCall, body: ChatRequest): AsyncGenerator<StreamPart> {
  let finished = false;
  let abortIterator: (() => void) | undefined;
  try {
    let iterator: AsyncIterator<unknown>;
    const opening = call.client.chat({ ...body, stream: true });
    try {
      const stream = await call.guard(opening);
      abortIterator = () => stream.abort();
      iterator = stream[Symbol.asyncIterator]();
    } catch (error) {
      // A caller-supplied client may still open the stream after we gave up on it: close it then.
      opening.then((late) => late.abort(), () => undefined);
      throw toOllamaError(error, call);
    }
    let sawToolCalls = false;
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = await call.guard(iterator.next());
      } catch (error) {
        throw toOllamaError(error, call);
      }
      if (next.done) break;
      call.touch();
      const chunk = next.value as WireChatChunk;
      const thinking = textOf(chunk.message?.thinking);
      if (thinking !== '') yield { type: 'reasoning-delta', text: thinking };
      const text = textOf(chunk.message?.content);
      if (text !== '') yield { type: 'text-delta', text };
      for (const toolCall of toolCallsOf(chunk)) {
        sawToolCalls = true;
        yield { type: 'tool-call', toolCall };
      }
      if (chunk.done === true) {
        finished = true;
        call.finish();
        // Lets the SDK see the done line and release the request (it returns right after it).
        await iterator.next().catch(() => undefined);
        yield { type: 'usage', usage: toUsage(chunk) };
        const finish: StreamPart = { type: 'finish', finishReason: toFinishReason(chunk.done_reason, sawToolCalls) };
        if (typeof chunk.model === 'string') finish.model = chunk.model;
        yield finish;
        return;
      }
    }
    throw providerTransportError(OLLAMA, 'stream', `the stream from Ollama at ${call.host} ended before its final "done" line`, { model: call.model });
  } finally {
    if (!finished) {
      abortIterator?.();
      call.cancel();
    }
  }
}
