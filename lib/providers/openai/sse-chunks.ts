import { APIError, OpenAIError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { SseBodyReader } from '../sse-body-reader.js';

/**
 * The Chat Completions chunks of a streamed response body. `next()` synchronously parses the next
 * chunk out of the text read so far (`undefined` when none is left); `read()` reads the next piece
 * of the body, resolving `false` at its end; see SseBodyReader.
 *
 * It reads the body the SDK fetched (`create(…).asResponse()`: the SDK still builds, sends and
 * authenticates the request and turns an HTTP error status into its own error) and applies the
 * SDK's stream rules: `data: [DONE]` ends the chunks (the rest of the body is still read, so the
 * connection can be reused); an event whose JSON has an `error` is the SDK's `APIError` (no
 * status, the response's headers); JSON that does not parse is the `SyntaxError` the SDK throws.
 * See docs/decisions/0007-openai-stream-decoding.md.
 */
export class SseChunkReader {
  readonly #body: SseBodyReader;
  readonly #headers: Headers;
  /** `data: [DONE]` arrived: later events are ignored. */
  #done = false;

  constructor(response: Response) {
    if (response.body === null) throw new OpenAIError('Attempted to iterate over a response with no body');
    this.#body = new SseBodyReader(response.body);
    this.#headers = response.headers;
  }

  /** The next chunk of the text read so far, or `undefined` (read more, or the stream is over). Throws on a bad event. */
  next(): ChatCompletionChunk | undefined {
    if (this.#done) return undefined;
    const event = this.#body.next();
    if (event === undefined) return undefined;
    if (event.data.startsWith('[DONE]')) {
      this.#done = true;
      this.#body.skipRest();
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
    return this.#body.read();
  }

  /** Stops reading: the body is cancelled (the connection is released). */
  cancel(): Promise<void> {
    return this.#body.cancel();
  }
}
