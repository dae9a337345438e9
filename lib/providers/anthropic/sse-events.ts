import { AnthropicError, APIError } from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ErrorType } from '@anthropic-ai/sdk/resources/shared';
import { SseBodyReader } from '../sse-body-reader.js';

/**
 * The Messages stream events of a streamed response body: `next()` synchronously parses the next
 * event out of what was read so far (`undefined` when none is left), `read()` reads more of the
 * body (`false` at its end); see SseBodyReader.
 *
 * It reads the body the SDK fetched (`messages.create(…).asResponse()`: the SDK builds, sends and
 * authenticates the request and turns an error status into its own error) and applies the SDK's
 * stream rules: `ping` events and events without an `event:` field are skipped; an `error` event
 * is the SDK's `APIError` (no status, its body, the response's headers, the error's type); an
 * event without data is skipped; JSON that does not parse is the `SyntaxError` the SDK throws.
 * See docs/decisions/0007-openai-stream-decoding.md.
 */
export class AnthropicEventReader {
  readonly #body: SseBodyReader;
  readonly #headers: Headers;

  constructor(response: Response) {
    if (response.body === null) throw new AnthropicError('Attempted to iterate over a response with no body');
    this.#body = new SseBodyReader(response.body);
    this.#headers = response.headers;
  }

  /** The next event of what was read so far, or `undefined` (read more, or the stream is over). Throws on a bad event. */
  next(): RawMessageStreamEvent | undefined {
    for (let sse = this.#body.next(); sse !== undefined; sse = this.#body.next()) {
      if (sse.event === null || sse.event === 'ping' || (sse.event !== 'error' && sse.data === '')) continue;
      if (sse.event === 'error') {
        const body = parseOr(sse.data);
        const type = typeof body === 'object' && body !== null ? (body as { error?: { type?: unknown } }).error?.type : undefined;
        throw new APIError(undefined, body as object | undefined, undefined, this.#headers, typeof type === 'string' ? (type as ErrorType) : undefined);
      }
      return JSON.parse(sse.data) as RawMessageStreamEvent;
    }
    return undefined;
  }

  /** Reads the next piece of the body: `true` when there may be more events, `false` at the end. */
  read(): Promise<boolean> {
    return this.#body.read();
  }

  /** Stops reading: the body is cancelled (the connection is released). */
  cancel(): Promise<void> {
    return this.#body.cancel();
  }
}

/** The JSON value of `text`, or the text itself when it is not JSON (as the SDK does for error events). */
function parseOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
