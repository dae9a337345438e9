import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CallControl } from '../call-control.js';
import type { StreamPart } from '../spec.js';
import { ChunkAssembler, isBrokenTransport } from './stream.js';

/** The chunks of an HTTP stream (SseChunkReader). */
export interface ChunkReader {
  /** The next chunk of what was read so far, `undefined` when none is left (read more). Throws on a bad chunk. */
  next: () => ChatCompletionChunk | undefined;
  /** Reads more of the stream: `false` at its end. Called only after `next()` gave `undefined`. */
  read: () => Promise<boolean>;
  /** Stops reading (a consumer that stopped early). */
  cancel: () => Promise<void>;
}

/** What opening the HTTP stream gives: its chunks and the request id. */
export interface OpenedChunks {
  chunks: ChunkReader;
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
 * OpenAI's `stream()` as a plain async iterator instead of an async generator. A `next()` takes
 * the next chunk from what was already read, synchronously, and hands out its parts from a buffer
 * with already-resolved promises; only when the read text has no chunk left does it wait for the
 * network (one promise per network read, not per chunk). An async generator pays several extra
 * microtask turns per `yield`, which on a fast stream is most of the adapter's cost per chunk.
 *
 * Semantics are the generator's: the request is sent on the first `next()`; every network read
 * restarts the idle window (the first one ends the first-byte wait); an abort or a timeout is an error, never a quiet end; a stream without a
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
  #chunks: ChunkReader | undefined;
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
    // Parts already converted go out, unless the call was aborted while the stream was open (then
    // #take throws its reason); the closing parts of an ended stream always do.
    if (this.#head < this.#out.length && (this.#closed || !(this.#call as CallControl).signal.aborted)) {
      return Promise.resolve({ value: this.#out[this.#head++] as StreamPart, done: false });
    }
    if (this.#closed) return Promise.resolve(DONE);
    if (this.#chunks !== undefined) {
      // The chunks already read, synchronously.
      let part: IteratorResult<StreamPart> | undefined;
      try {
        part = this.#take();
      } catch (error) {
        this.#reading = true;
        return (this.#pending = Promise.resolve(error).then(this.#onError));
      }
      if (part !== undefined) return Promise.resolve(part);
    }
    // The read clears `#reading` itself when it settles: a `then` on it to notice would cost more
    // than the rest of a chunk's handling.
    this.#reading = true;
    return (this.#pending = this.#chunks === undefined ? this.#openAndRead() : this.#readChunk());
  }

  /**
   * The first part of the next chunks already read, or `undefined` when they gave none (read
   * more). Throws the call's abort reason, or a chunk's error.
   */
  #take(): IteratorResult<StreamPart> | undefined {
    const chunks = this.#chunks as ChunkReader;
    const assembler = this.#assembler as ChunkAssembler;
    const call = this.#call as CallControl;
    const out = this.#out;
    out.length = 0;
    this.#head = 0;
    // An abort or a timeout must not pass for the end of the stream, nor let buffered chunks through.
    if (call.signal.aborted) throw call.signal.reason;
    // Taking a chunk counts as activity: a consumer slower than the silence window on chunks that
    // already arrived must not time the call out.
    call.touch();
    for (let chunk = chunks.next(); chunk !== undefined; chunk = chunks.next()) {
      assembler.push(chunk, out);
      if (out.length > 0) return { value: out[this.#head++] as StreamPart, done: false };
    }
    return undefined;
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
      // The headers are not the first byte of the reply: the first-byte wait runs on.
      const opened = await this.#source.open(call);
      this.#chunks = opened.chunks;
      this.#assembler = new ChunkAssembler({ provider: this.#source.provider, model: this.#source.model, requestId: opened.requestId });
    } catch (error) {
      return this.#onError(error);
    }
    return this.#readChunk();
  }

  /** Reads until the chunks read give a part (or the stream ends): plain `then`s, no async frame per read. */
  #readChunk(): Promise<IteratorResult<StreamPart>> {
    this.#out.length = 0;
    this.#head = 0;
    try {
      return (this.#chunks as ChunkReader).read().then(this.#onRead, this.#onError);
    } catch (error) {
      return Promise.resolve(error).then(this.#onError);
    }
  }

  readonly #onRead = (more: boolean): IteratorResult<StreamPart> | Promise<IteratorResult<StreamPart>> => {
    const call = this.#call as CallControl;
    const out = this.#out;
    try {
      if (more && !call.signal.aborted) {
        call.touch();
        const part = this.#take();
        if (part === undefined) return this.#readChunk();
        this.#reading = false;
        return part;
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
      await this.#chunks?.cancel().catch(() => undefined);
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
