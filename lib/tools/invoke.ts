import { CancellationError } from '../core/errors/cancellation-error.js';
import { serializeToolResult } from './serialize.js';
import type { ToolContext, ToolOutput } from './types.js';

type Chunks = AsyncIterator<unknown> | Iterator<unknown>;

/**
 * The iterator of a streaming result: an async iterable (async generator, ReadableStream, …) or a
 * sync iterator such as a generator object. Strings, arrays, Maps, Sets and other plain iterables
 * are values, not streams.
 */
function streamOf(value: unknown): Chunks | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const asyncIterator = (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator];
  if (typeof asyncIterator === 'function') return (asyncIterator as () => AsyncIterator<unknown>).call(value);
  const iterator = (value as { [Symbol.iterator]?: unknown })[Symbol.iterator];
  const next = (value as { next?: unknown }).next;
  if (typeof iterator === 'function' && typeof next === 'function') return (iterator as () => Iterator<unknown>).call(value);
  return undefined;
}

/** The signal's reason when it is an Error (the usual AbortError), else a CancellationError carrying it. */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new CancellationError({ reason, message: 'The tool was cancelled' });
}

/**
 * Runs `execute(args, ctx)` and turns its result into a ToolOutput. A streaming result is consumed
 * chunk by chunk: each chunk is serialised, passed to `onChunk` (when non-empty) and kept; the
 * content is the chunks joined, `raw` the array of (unserialised) chunks. When `ctx.signal` aborts,
 * the stream is closed (`return()`) and the abort reason is thrown (a CancellationError when it is not an Error), even while a chunk is pending.
 * Errors from `execute` propagate unchanged.
 */
export async function invokeExecute<A, C>(
  execute: (args: A, ctx: ToolContext<C>) => unknown,
  args: A,
  ctx: ToolContext<C>,
  onChunk?: (chunk: string) => void,
): Promise<ToolOutput> {
  if (ctx.signal.aborted) throw abortReason(ctx.signal);
  const returned = execute(args, ctx);
  const stream = streamOf(returned);
  if (stream) return consume(stream, ctx.signal, onChunk);
  const value: unknown = await returned;
  const later = streamOf(value);
  if (later) return consume(later, ctx.signal, onChunk);
  return { content: serializeToolResult(value), raw: value };
}

async function consume(iterator: Chunks, signal: AbortSignal, onChunk?: (chunk: string) => void): Promise<ToolOutput> {
  const raw: unknown[] = [];
  const texts: string[] = [];
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  let finished = false;
  try {
    for (;;) {
      if (signal.aborted) throw abortReason(signal);
      const step = await Promise.race([iterator.next(), aborted]);
      if (step.done) {
        finished = true;
        break;
      }
      const text = serializeToolResult(step.value);
      raw.push(step.value);
      texts.push(text);
      if (text !== '' && onChunk) onChunk(text);
    }
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
    if (!finished) closeQuietly(iterator);
  }
  return { content: texts.join(''), raw };
}

/** Asks the producer to stop (runs its `finally` blocks); failures there are not the caller's problem. */
function closeQuietly(iterator: Chunks): void {
  try {
    const closing = iterator.return?.();
    if (closing && typeof (closing as Promise<unknown>).then === 'function') (closing as Promise<unknown>).catch(() => undefined);
  } catch {
    // a sync generator that is still running cannot be closed; nothing more to do
  }
}
