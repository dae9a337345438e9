import type { ReadableStreamReadResult } from 'node:stream/web';
import { SseDecoder, type SseEvent } from './sse-decoder.js';

const STREAMING = { stream: true };

/**
 * Bytes decoded at a time: a network read can bring 64 KB or more, and its first event should not
 * wait for (nor allocate) the text of all the others.
 */
const DECODE_STEP = 8192;

/**
 * The server-sent events of a response body. `next()` synchronously parses the next event out of
 * what was read so far (`undefined` when none is left); `read()` reads the next piece of the body,
 * resolving `false` at its end. A consumer takes events with `next()` and calls `read()` only when
 * `next()` gave `undefined`: one promise per network read, and a read that brings a hundred events
 * decodes (8 KB at a time, with a streaming TextDecoder) and parses only as far as it is asked.
 *
 * The provider adapters put their SDK's event rules on top (decision 0007): the SDKs' own `Stream`
 * runs several async generators and copies its byte buffer for every event.
 */
export class SseBodyReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #text = new TextDecoder();
  readonly #sse = new SseDecoder();
  /** The bytes of the last network read not yet decoded start at `#offset`. */
  #bytes: Uint8Array | undefined;
  #offset = 0;
  /** Bytes the next decode step takes: DECODE_STEP, doubled while a step completes no event (a long event). */
  #step = DECODE_STEP;
  /** `skipRest()`: the body is still read to its end, but not decoded. */
  #skipping = false;
  #ended = false;

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.getReader();
  }

  /** The next complete event of what was read so far, or `undefined` (read more, or the body is over). */
  next(): SseEvent | undefined {
    let event = this.#sse.next();
    while (event === undefined && this.#bytes !== undefined) {
      this.#step *= 2;
      this.#decodeStep();
      event = this.#sse.next();
    }
    if (event !== undefined) this.#step = DECODE_STEP;
    return event;
  }

  /** Reads the next piece of the body: `true` when there may be more events, `false` at the end. */
  read(): Promise<boolean> {
    if (this.#ended) return Promise.resolve(false);
    return this.#reader.read().then(this.#onRead);
  }

  /**
   * No more events are wanted (the stream's end marker came): what was read is dropped and the rest
   * of the body is read without decoding, so the connection can be reused.
   */
  skipRest(): void {
    this.#skipping = true;
    this.#bytes = undefined;
    this.#sse.end();
  }

  /** Stops reading: the body is cancelled (the connection is released). */
  async cancel(): Promise<void> {
    this.#ended = true;
    this.#bytes = undefined;
    await this.#reader.cancel().catch(() => undefined);
  }

  readonly #onRead = (result: ReadableStreamReadResult<Uint8Array>): boolean => {
    if (result.done) {
      // Whatever is left is an event no blank line closed (dropped), or bytes of a cut character.
      this.#ended = true;
      this.#sse.end();
      return false;
    }
    if (!this.#skipping) {
      this.#bytes = result.value;
      this.#offset = 0;
      this.#decodeStep();
    }
    return true;
  };

  /** Decodes the next step of the last network read's bytes into the SSE decoder. */
  #decodeStep(): void {
    const bytes = this.#bytes as Uint8Array;
    const end = Math.min(this.#offset + this.#step, bytes.length);
    const piece = this.#offset === 0 && end === bytes.length ? bytes : bytes.subarray(this.#offset, end);
    this.#offset = end;
    if (end === bytes.length) this.#bytes = undefined;
    this.#sse.feed(this.#text.decode(piece, STREAMING));
  }
}
