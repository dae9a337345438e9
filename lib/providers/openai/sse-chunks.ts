import type { ReadableStreamReadResult } from 'node:stream/web';
import { APIError, OpenAIError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { SseDecoder } from '../sse-decoder.js';

const STREAMING = { stream: true };
/**
 * Bytes decoded at a time: a network read can bring 64 KB or more, and its first chunk should not
 * wait for (nor allocate) the text of all the others.
 */
const DECODE_STEP = 8192;

/**
 * The Chat Completions chunks of a streamed response body. `next()` synchronously parses the next
 * chunk out of the text read so far (`undefined` when none is left); `read()` reads the next piece
 * of the body, resolving `false` at its end. A consumer takes chunks with `next()` and calls
 * `read()` only when `next()` gave `undefined`: one promise per network read, and a read that
 * brings a hundred events parses only the ones asked for.
 *
 * It reads the body the SDK fetched (`create(…).asResponse()`: the SDK still builds, sends and
 * authenticates the request and turns an HTTP error status into its own error) and does the
 * SDK's stream decoding itself, with the SDK's rules: `data: [DONE]` ends the chunks (the rest of
 * the body is still read, so the connection can be reused); an event whose JSON has an `error`
 * is the SDK's `APIError` (no status, the response's headers); JSON that does not parse is the
 * `SyntaxError` the SDK throws. Where the SDK runs four async generators and copies its byte
 * buffer for every event, this is one read per network chunk and plain parsing.
 * See docs/decisions/0007-openai-stream-decoding.md.
 */
export class SseChunkReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #headers: Headers;
  readonly #text = new TextDecoder();
  readonly #sse = new SseDecoder();
  /** The bytes of the last network read not yet decoded start at `#offset`. */
  #bytes: Uint8Array | undefined;
  #offset = 0;
  /** `data: [DONE]` arrived: later events are ignored. */
  #done = false;
  #ended = false;

  constructor(response: Response) {
    if (response.body === null) throw new OpenAIError('Attempted to iterate over a response with no body');
    this.#reader = response.body.getReader();
    this.#headers = response.headers;
  }

  /** The next chunk of the text read so far, or `undefined` (read more, or the stream is over). Throws on a bad event. */
  next(): ChatCompletionChunk | undefined {
    if (this.#done) return undefined;
    let event = this.#sse.next();
    while (event === undefined && this.#bytes !== undefined) {
      this.#decodeStep();
      event = this.#sse.next();
    }
    if (event === undefined) return undefined;
    if (event.data.startsWith('[DONE]')) {
      this.#done = true;
      return undefined;
    }
    const data = JSON.parse(event.data) as ChatCompletionChunk & { error?: unknown };
    if (data !== null && typeof data === 'object' && data.error) {
      throw new APIError(undefined, data.error, undefined, this.#headers);
    }
    return data;
  }

  /** Reads the next piece of the body: `true` when there may be more chunks, `false` at the end. */
  read(): Promise<boolean> {
    if (this.#ended) return Promise.resolve(false);
    return this.#reader.read().then(this.#onRead);
  }

  /** Stops reading: the body is cancelled (the connection is released). */
  async cancel(): Promise<void> {
    this.#ended = true;
    await this.#reader.cancel().catch(() => undefined);
  }

  readonly #onRead = (result: ReadableStreamReadResult<Uint8Array>): boolean => {
    if (result.done) {
      // Whatever is left is an event no blank line closed (dropped), or bytes of a cut character.
      this.#ended = true;
      this.#sse.end();
      return false;
    }
    // After [DONE] the body is read to its end, but not decoded.
    if (!this.#done) {
      this.#bytes = result.value;
      this.#offset = 0;
      this.#decodeStep();
    }
    return true;
  };

  /** Decodes the next step of the last network read's bytes into the SSE decoder. */
  #decodeStep(): void {
    const bytes = this.#bytes as Uint8Array;
    const end = Math.min(this.#offset + DECODE_STEP, bytes.length);
    const piece = this.#offset === 0 && end === bytes.length ? bytes : bytes.subarray(this.#offset, end);
    this.#offset = end;
    if (end === bytes.length) this.#bytes = undefined;
    this.#sse.feed(this.#text.decode(piece, STREAMING));
  }
}
