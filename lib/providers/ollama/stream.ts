import type { ChatRequest } from 'ollama';
import { providerTransportError } from '../provider-errors.js';
import type { StreamPart } from '../spec.js';
import { MalformedLineError, type OllamaCall } from './call.js';
import { textOf, toFinishReason, toToolCall, toUsage, type WireChatChunk } from './convert-response.js';
import { OLLAMA, toOllamaError } from './errors.js';

/** The state of one streamed reply: tool calls seen so far. */
interface ChatState {
  sawToolCalls: boolean;
}

/** Adds the parts of one `/api/chat` object to `out`; true when it was the final `done` object. */
function pushChunk(chunk: WireChatChunk, state: ChatState, out: StreamPart[]): boolean {
  const message = chunk.message;
  if (message !== undefined && message !== null) {
    const thinking = textOf(message.thinking);
    if (thinking !== '') out.push({ type: 'reasoning-delta', text: thinking });
    const text = textOf(message.content);
    if (text !== '') out.push({ type: 'text-delta', text });
    const calls = message.tool_calls;
    if (Array.isArray(calls)) {
      for (const raw of calls) {
        state.sawToolCalls = true;
        out.push({ type: 'tool-call', toolCall: toToolCall(raw) });
      }
    }
  }
  if (chunk.done !== true) return false;
  out.push({ type: 'usage', usage: toUsage(chunk) });
  const finish: StreamPart = { type: 'finish', finishReason: toFinishReason(chunk.done_reason, state.sawToolCalls) };
  if (typeof chunk.model === 'string') finish.model = chunk.model;
  out.push(finish);
  return true;
}

function cutShort(call: OllamaCall): Error {
  return providerTransportError(OLLAMA, 'stream', `the stream from Ollama at ${call.host} ended before its final "done" line`, { model: call.model });
}

/** One NDJSON line → its object; a line that is not a JSON object, or an `{"error"}` line, throws. */
function parseLine(line: string, call: OllamaCall): WireChatChunk {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const bad = new MalformedLineError(line);
    throw providerTransportError(OLLAMA, 'stream', bad.message, { model: call.model, cause: bad });
  }
  if ('error' in parsed) {
    const error = parsed.error;
    const text = typeof error === 'string' ? error : JSON.stringify(error);
    throw providerTransportError(OLLAMA, 'stream', `Ollama reported an error mid-stream: ${text}`, { model: call.model });
  }
  return parsed;
}

/** True when `line` holds only spaces, tabs and CRs (blank lines are skipped). */
function blank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

/**
 * Reads an NDJSON `/api/chat` body straight from the response (one decode and one JSON.parse per
 * line; no stream hop, no per-chunk timer): every read restarts the call's silence window.
 */
async function* readNdjson(body: ReadableStream<Uint8Array>, call: OllamaCall): AsyncGenerator<StreamPart> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const state: ChatState = { sawToolCalls: false };
  const out: StreamPart[] = [];
  let pending = '';
  let done = false;
  let ended = false;
  try {
    while (!done) {
      let read: Awaited<ReturnType<typeof reader.read>>;
      try {
        read = await reader.read();
      } catch (error) {
        throw toOllamaError(error, call);
      }
      call.touch();
      let text: string;
      if (read.done) {
        ended = true;
        text = pending + decoder.decode();
        pending = '';
      } else {
        text = pending === '' ? decoder.decode(read.value, { stream: true }) : pending + decoder.decode(read.value, { stream: true });
      }
      let start = 0;
      for (let newline = text.indexOf('\n'); !done && (newline !== -1 || (ended && start < text.length)); newline = text.indexOf('\n', start)) {
        const end = newline === -1 ? text.length : newline;
        const line = text.slice(start, end);
        start = end + 1;
        if (blank(line)) continue;
        done = pushChunk(parseLine(line, call), state, out);
        for (let i = 0; i < out.length; i++) {
          // The final parts: the call is over (no timer while the consumer handles them).
          if (done && i === 0) call.finish();
          yield out[i] as StreamPart;
        }
        out.length = 0;
      }
      if (!done) {
        if (ended) throw cutShort(call);
        pending = start === 0 ? text : text.slice(start);
      }
    }
  } finally {
    if (!ended) {
      // After the done line only the end of the body is left: read it in the background (the
      // connection can then be reused) and cancel anything more. An abandoned stream is cancelled.
      if (done) void reader.read().then((rest) => (rest.done ? undefined : reader.cancel()), () => undefined);
      else reader.cancel().catch(() => undefined);
    }
  }
}

/** The SDK's own iterator (a caller-supplied client): each step guarded by the call's signal. */
async function* readSdkStream(iterator: AsyncIterator<unknown>, call: OllamaCall): AsyncGenerator<StreamPart> {
  const state: ChatState = { sawToolCalls: false };
  const out: StreamPart[] = [];
  for (;;) {
    let next: IteratorResult<unknown>;
    try {
      next = await call.guard(iterator.next());
    } catch (error) {
      throw toOllamaError(error, call);
    }
    if (next.done) break;
    call.touch();
    const done = pushChunk(next.value as WireChatChunk, state, out);
    if (done) {
      call.finish();
      // Lets the SDK see the done line and release the request (it returns right after it).
      await iterator.next().catch(() => undefined);
    }
    for (let i = 0; i < out.length; i++) yield out[i] as StreamPart;
    out.length = 0;
    if (done) return;
  }
  throw cutShort(call);
}

/**
 * Streams one `/api/chat` call: NDJSON objects → text / reasoning deltas, whole tool calls, then
 * `usage` and `finish` from the final `done: true` line. Any failure (an `{"error"}` line, a
 * malformed line, a stream cut before `done`, a timeout) is thrown as a typed ProviderError; an
 * abort through the request signal rethrows its reason. `open` makes the call (its timer starts)
 * and the request body on the first pull.
 */
export async function* streamChat(open: () => { call: OllamaCall; body: ChatRequest }): AsyncGenerator<StreamPart> {
  const { call, body } = open();
  let finished = false;
  let abortIterator: (() => void) | undefined;
  try {
    const opening = call.client.chat({ ...body, stream: true });
    let stream: Awaited<typeof opening>;
    try {
      stream = await call.guard(opening);
    } catch (error) {
      // A caller-supplied client may still open the stream after we gave up on it: close it then.
      opening.then((late) => late.abort(), () => undefined);
      throw toOllamaError(error, call);
    }
    abortIterator = () => stream.abort();
    const raw = call.streamBody;
    if (raw) yield* readNdjson(raw, call);
    else yield* readSdkStream(stream[Symbol.asyncIterator](), call);
    finished = true;
  } finally {
    if (!finished) {
      abortIterator?.();
      call.cancel();
    }
  }
}
