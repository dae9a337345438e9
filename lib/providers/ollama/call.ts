import { Ollama } from 'ollama';
import { CallControl } from '../call-control.js';
import type { CallTimeouts } from '../call-timeouts.js';

/** Thrown into the response body when a streamed line is not JSON (the SDK would skip it silently). */
export class MalformedLineError extends Error {
  override readonly name = 'MalformedLineError';
  constructor(readonly line: string) {
    super(`malformed NDJSON line: ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`);
  }
}

function errorMessage(text: string, fallback: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
    const nested = (parsed.error as { message?: unknown } | undefined)?.message;
    if (typeof nested === 'string') return nested;
  } catch {
    // not JSON: the text itself is the message
  }
  return text.trim() === '' ? fallback : text.trim().slice(0, 1000);
}

/** The password of a host URL with user info (`https://user:secret@host`). */
function hostPassword(host: string): string | undefined {
  try {
    const password = new URL(host).password;
    return password === '' ? undefined : decodeURIComponent(password);
  } catch {
    return undefined;
  }
}

/**
 * An error response re-made as `{"error": "<message>"}` JSON, which the SDK turns into a
 * ResponseError quietly (it logs to the console for bodies that are not such JSON).
 */
function errorResponse(response: Response, text: string): Response {
  const headers = new Headers(response.headers);
  headers.set('content-type', 'application/json');
  const message = errorMessage(text, `${response.status} ${response.statusText}`.trim());
  return new Response(JSON.stringify({ error: message }), { status: response.status, statusText: response.statusText, headers });
}

/** What one call to Ollama needs: its client, host, model, timeout and cancellation state. */
export interface CallOptions {
  host: string;
  model: string;
  /** The call's limits (a `complete` / `embed` call: the total only). */
  timeouts: CallTimeouts;
  signal: AbortSignal | undefined;
  /** True for `stream: true` chat calls (their NDJSON body is read by the provider, see `streamBody`). */
  streaming: boolean;
  /** A caller-supplied SDK client; otherwise one is built on this call's fetch. */
  client: Ollama | undefined;
  /** Sent as `Authorization: Bearer` by the client built for this call. */
  apiKey?: string | undefined;
}

/**
 * One HTTP exchange with Ollama, on a CallControl (the request signal plus one timer for the
 * call's limits; bytes of a streamed body restart its idle window). The SDK is handed a fetch that runs on the call's signal and
 * remembers the response headers. A streamed `/api/chat` body is kept for the provider to read
 * itself (`streamBody`): the SDK's NDJSON reader skips malformed lines silently and turns
 * `{"error"}` lines into bare Errors, and checking its input line by line would parse every line
 * twice.
 */
export class OllamaCall {
  readonly control: CallControl;
  readonly client: Ollama;
  readonly host: string;
  readonly model: string;
  /** The caller's signal. */
  readonly signal: AbortSignal | undefined;
  readonly streaming: boolean;
  /** Credentials scrubbed from this call's errors (see `toOllamaError`): the API key, `OLLAMA_API_KEY` (the SDK sends it to ollama.com), a password in the host URL. */
  readonly credentials: readonly (string | null | undefined)[];
  /** Headers of the last response (for Retry-After). */
  headers: Headers | undefined;
  /** The body of a successful streamed response (our own client only), unread. */
  streamBody: ReadableStream<Uint8Array> | undefined;
  /** Whether the SDK client runs on this call's fetch (then aborts reach the socket and `guard` is not needed). */
  private readonly ownsClient: boolean;

  constructor(options: CallOptions) {
    this.host = options.host;
    this.model = options.model;
    this.signal = options.signal;
    this.streaming = options.streaming;
    this.credentials = [options.apiKey, process.env.OLLAMA_API_KEY, hostPassword(options.host)];
    this.control = new CallControl(options.signal, options.timeouts);
    this.ownsClient = options.client === undefined;
    const headers = options.apiKey === undefined ? {} : { headers: { Authorization: `Bearer ${options.apiKey}` } };
    this.client = options.client ?? new Ollama({ host: options.host, fetch: this.fetch, ...headers });
  }

  /** True once a limit ran out (as opposed to the caller aborting). */
  get timedOut(): boolean {
    return this.control.timedOut;
  }

  /** Bytes arrived: ends the first-byte wait, restarts the idle window (hot path: records the time only). */
  touch(): void {
    this.control.touch();
  }

  /** Stops the timer and detaches from the request signal. */
  finish(): void {
    this.control.dispose();
  }

  /** Ends the exchange early (releases the connection). */
  cancel(): void {
    if (!this.control.signal.aborted) this.control.abort();
    this.control.dispose();
  }

  /**
   * Settles with `promise`, or (for a caller-supplied client, whose fetch ignores this call's
   * signal) rejects with the abort reason as soon as the call is aborted or times out.
   */
  guard<T>(promise: Promise<T>): Promise<T> {
    if (this.ownsClient) return promise;
    const signal = this.control.signal;
    if (signal.aborted) {
      promise.catch(() => undefined);
      return Promise.reject(signal.reason as Error);
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error instanceof Error ? error : new Error(String(error), { cause: error }));
        },
      );
    });
  }

  /** The fetch given to the SDK. */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const own = this.control.signal;
    const signal = init?.signal ? AbortSignal.any([init.signal, own]) : own;
    const response = await fetch(input, { ...init, signal });
    // The headers are not the first byte of the reply: the first-byte wait runs on.
    this.headers = response.headers;
    if (!response.ok) return errorResponse(response, await response.text());
    if (!response.body) return response;
    if (this.streaming) {
      // Read by the provider (streamNdjson), never by the SDK, whose iterator stays unused.
      this.streamBody = response.body;
      return response;
    }
    const touch = (chunk: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>): void => {
      this.touch();
      controller.enqueue(chunk);
    };
    const body = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ transform: touch }));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
