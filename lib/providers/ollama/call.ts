import { Ollama } from 'ollama';

/** Thrown into the response body when a streamed line is not JSON (the SDK would skip it silently). */
export class MalformedLineError extends Error {
  override readonly name = 'MalformedLineError';
  constructor(readonly line: string) {
    super(`malformed NDJSON line: ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`);
  }
}

/** The abort reason used when the per-call timeout fires. */
class TimeoutReason extends Error {
  override readonly name = 'TimeoutError';
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
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** True for `stream: true` chat calls (their body is NDJSON and is checked line by line). */
  streaming: boolean;
  /** A caller-supplied SDK client; otherwise one is built on this call's fetch. */
  client: Ollama | undefined;
}

/**
 * One HTTP exchange with Ollama. The SDK is handed a fetch that applies the call's timeout (reset
 * whenever bytes arrive) and the request signal, remembers the response headers, and checks every
 * NDJSON line (the SDK drops malformed lines silently and turns `{"error"}` lines into bare Errors).
 */
export class OllamaCall {
  readonly controller = new AbortController();
  readonly client: Ollama;
  readonly host: string;
  readonly model: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly streaming: boolean;
  timedOut = false;
  /** The message of a `{"error": …}` line seen in the stream. */
  errorLine: string | undefined;
  /** A `done: true` line was seen. */
  sawDone = false;
  /** The response body ended normally. */
  bodyEnded = false;
  /** Headers of the last response (for Retry-After). */
  headers: Headers | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastActivity = 0;
  /** Whether the SDK client runs on this call's fetch (then aborts reach the socket and `guard` is not needed). */
  private readonly ownsClient: boolean;
  private readonly onAbort = (): void => this.controller.abort(this.signal?.reason);

  constructor(options: CallOptions) {
    this.host = options.host;
    this.model = options.model;
    this.timeoutMs = options.timeoutMs;
    this.signal = options.signal;
    this.streaming = options.streaming;
    this.ownsClient = options.client === undefined;
    this.client = options.client ?? new Ollama({ host: options.host, fetch: this.fetch });
    if (this.signal?.aborted) this.controller.abort(this.signal.reason);
    else this.signal?.addEventListener('abort', this.onAbort, { once: true });
    this.touch();
  }

  /** Restarts the inactivity timer (cheap: the running timer re-arms itself for the time left). */
  touch(): void {
    this.lastActivity = performance.now();
    if (this.timer !== undefined || this.controller.signal.aborted || !(this.timeoutMs > 0) || !Number.isFinite(this.timeoutMs)) return;
    this.arm(this.timeoutMs);
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const left = this.lastActivity + this.timeoutMs - performance.now();
      if (left > 1) {
        this.arm(left);
        return;
      }
      this.timedOut = true;
      this.controller.abort(new TimeoutReason(`no response within ${this.timeoutMs} ms`));
    }, ms);
  }

  /** Stops the timer and detaches from the request signal. */
  finish(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.signal?.removeEventListener('abort', this.onAbort);
  }

  /** Ends the exchange early (releases the connection). */
  cancel(): void {
    this.finish();
    if (!this.controller.signal.aborted) this.controller.abort();
  }

  /**
   * Settles with `promise`, or (for a caller-supplied client, whose fetch ignores this call's
   * signal) rejects with the abort reason as soon as the call is aborted or times out.
   */
  guard<T>(promise: Promise<T>): Promise<T> {
    if (this.ownsClient) return promise;
    const signal = this.controller.signal;
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
    const signal = init?.signal ? AbortSignal.any([init.signal, this.controller.signal]) : this.controller.signal;
    const response = await fetch(input, { ...init, signal });
    this.headers = response.headers;
    this.touch();
    if (!response.ok) return errorResponse(response, await response.text());
    if (!response.body) return response;
    const body = response.body.pipeThrough(this.watch(response.ok && this.streaming));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  private watch(checkLines: boolean): TransformStream<Uint8Array, Uint8Array> {
    const decoder = new TextDecoder();
    let pending = '';
    const check = (line: string): MalformedLineError | undefined => {
      if (line.trim() === '') return undefined;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        return new MalformedLineError(line);
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return new MalformedLineError(line);
      const record = parsed as Record<string, unknown>;
      if ('error' in record) this.errorLine = typeof record.error === 'string' ? record.error : JSON.stringify(record.error);
      if (record.done === true) this.sawDone = true;
      return undefined;
    };
    return new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, controller) => {
        this.touch();
        if (checkLines) {
          pending += decoder.decode(chunk, { stream: true });
          const lines = pending.split('\n');
          pending = lines.pop() ?? '';
          for (const line of lines) {
            const bad = check(line);
            if (bad) {
              controller.error(bad);
              return;
            }
          }
        }
        controller.enqueue(chunk);
      },
      flush: (controller) => {
        if (checkLines) {
          const bad = check(pending + decoder.decode());
          if (bad) {
            controller.error(bad);
            return;
          }
        }
        this.bodyEnded = true;
        if (this.timer !== undefined) clearTimeout(this.timer);
        this.timer = undefined;
      },
    });
  }
}
