import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CallControl } from '../call-control.js';
import type { StreamPart } from '../spec.js';
import { ChunkAssembler, isBrokenTransport } from './stream.js';

/** What opening the HTTP stream gives: the SDK's chunk iterator and the request id. */
export interface OpenedChunks {
  chunks: AsyncIterator<ChatCompletionChunk>;
  requestId: string | undefined;
}

/** How a PartStream opens, labels and fails its call. */
export interface PartStreamSource {
  /** Creates the call's control (signal and silence timer) when the stream starts: nothing runs before the first `next()`. */
  begin: () => CallControl;
  /** Sends the request on the call's signal. */
  open: (call: CallControl) => Promise<OpenedChunks>;
  provider: string;
  model: string;
  /** Maps any failure to the error the caller sees (a ProviderError, or the abort reason). */
  fail: (error: unknown, call: CallControl) => unknown;
}

const DONE: IteratorResult<StreamPart> = Object.freeze({ value: undefined, done: true });

/**
 * OpenAI's `stream()` as a plain async iterator instead of an async generator: the parts of one
 * chunk are handed out from a buffer with an already-resolved promise, and the next chunk is read
 * only when the buffer is empty. An async generator pays several extra microtask turns per
 * `yield`, which on a fast stream is most of the adapter's cost per chunk.
 *
 * Semantics are the generator's: the request is sent on the first `next()`; every chunk restarts
 * the silence timer; an abort or a timeout is an error, never a quiet end; a stream without a
 * finish reason throws; `return()` (a consumer that stops early) aborts the HTTP stream; the
 * call's timer and signal links are released once, however the stream ends. A dropped connection
 * or a silence timeout after the finish reason and some output ends the stream as complete,
 * without usage (ChunkAssembler.completeAfterBreak); a caller abort never does.
 */
export class PartStream implements AsyncIterableIterator<StreamPart> {
  readonly #source: PartStreamSource;
  readonly #out: StreamPart[] = [];
  #head = 0;
  #call: CallControl | undefined;
  #chunks: AsyncIterator<ChatCompletionChunk> | undefined;
  #assembler: ChunkAssembler | undefined;
  #closed = false;
  /** Set by `return()`: a read still in flight then ends the stream quietly instead of failing. */
  #returned = false;
  /** A read is in flight (`#pending` is its promise); cleared by the read itself, before it settles. */
  #reading = false;
  #pending: Promise<IteratorResult<StreamPart>> | undefined;

  constructor(source: PartStreamSource) {
    this.#source = source;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<StreamPart>> {
    // A call made before the previous read settled waits its turn, as an async generator's does.
    if (this.#reading) {
      const after = (): Promise<IteratorResult<StreamPart>> => this.next();
      return (this.#pending as Promise<IteratorResult<StreamPart>>).then(after, after);
    }
    if (this.#head < this.#out.length) return Promise.resolve({ value: this.#out[this.#head++] as StreamPart, done: false });
    if (this.#closed) return Promise.resolve(DONE);
    // The read clears `#reading` itself when it settles: a `then` on it to notice would cost more
    // than the rest of a chunk's handling.
    this.#reading = true;
    return (this.#pending = this.#chunks === undefined ? this.#openAndRead() : this.#readChunk());
  }

  /** The first read: sends the request (the call's timer starts here), then reads a chunk. */
  async #openAndRead(): Promise<IteratorResult<StreamPart>> {
    let call: CallControl;
    try {
      call = this.#call ??= this.#source.begin();
    } catch (error) {
      this.#reading = false;
      throw error;
    }
    try {
      const opened = await this.#source.open(call);
      call.touch();
      this.#chunks = opened.chunks;
      this.#assembler = new ChunkAssembler({ provider: this.#source.provider, model: this.#source.model, requestId: opened.requestId });
    } catch (error) {
      return this.#onError(error);
    }
    return this.#readChunk();
  }

  /** Reads chunks until one yields parts (or the stream ends): plain `then`s, no async frame per chunk. */
  #readChunk(): Promise<IteratorResult<StreamPart>> {
    this.#out.length = 0;
    this.#head = 0;
    try {
      return (this.#chunks as AsyncIterator<ChatCompletionChunk>).next().then(this.#onChunk, this.#onError);
    } catch (error) {
      return Promise.resolve(error).then(this.#onError);
    }
  }

  readonly #onChunk = (result: IteratorResult<ChatCompletionChunk>): IteratorResult<StreamPart> | Promise<IteratorResult<StreamPart>> => {
    const call = this.#call as CallControl;
    const out = this.#out;
    try {
      if (result.done !== true) {
        call.touch();
        (this.#assembler as ChunkAssembler).push(result.value, out);
        // The SDK ends an aborted stream quietly: an abort or a timeout must not pass for the end.
        if (!call.signal.aborted) {
          if (out.length === 0) return this.#readChunk();
          this.#reading = false;
          return { value: out[this.#head++] as StreamPart, done: false };
        }
      }
      if (this.#returned) {
        this.#reading = false;
        return DONE;
      }
      if (call.signal.aborted) throw call.signal.reason;
      (this.#assembler as ChunkAssembler).end(out);
      this.#close(true);
      this.#reading = false;
      return this.#head < out.length ? { value: out[this.#head++] as StreamPart, done: false } : DONE;
    } catch (error) {
      return this.#onError(error);
    }
  };

  /** A failed read: the stream closes; the error is mapped, unless a complete answer survives a broken transport. */
  readonly #onError = (error: unknown): IteratorResult<StreamPart> => {
    const out = this.#out;
    const call = this.#call as CallControl;
    try {
      out.length = 0;
      this.#head = 0;
      this.#close(false);
      if (this.#returned) return DONE;
      const failure = this.#source.fail(error, call);
      if (!call.callerAborted && isBrokenTransport(failure) && this.#assembler?.completeAfterBreak(out) === true) {
        return { value: out[this.#head++] as StreamPart, done: false };
      }
      throw failure;
    } finally {
      this.#reading = false;
    }
  };

  /** The consumer stopped early (break, return, throw in a for-await): the HTTP stream is aborted. */
  async return(): Promise<IteratorResult<StreamPart>> {
    this.#returned = true;
    this.#out.length = 0;
    if (this.#call === undefined) this.#closed = true; // never started: nothing to release
    if (!this.#closed) {
      this.#close(false);
      await this.#chunks?.return?.().catch(() => undefined);
    }
    return DONE;
  }

  #close(finished: boolean): void {
    if (this.#closed) return;
    this.#closed = true;
    if (!finished) this.#call?.abort();
    this.#call?.dispose();
  }
}
