import type { ServerResponse } from 'node:http';

const encoder = new TextEncoder();

/** Response headers of an event stream (no caching, no proxy buffering). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
};

/** Where an SseStream's bytes go: a Web ReadableStream (Hono routes) or a Node response (the fast path). */
export interface SseSink {
  /** Writes frames (those of one event-loop turn, joined). May throw once the client is gone. */
  write(text: string): void;
  /** Ends the response. */
  end(): void;
  /** Sends the response headers on their own (called when the first turn produced no frame). */
  flushHeaders?(): void;
}

/**
 * A `text/event-stream` body written as events happen. `send` queues one complete frame
 * (`event: <name>\ndata: <json>\n\n`); the frames queued during one event-loop turn go to the sink
 * in one write at the end of that turn (`process.nextTick`), so a burst of deltas costs one system
 * call while a delta that arrives on its own still goes out at once. A comment line every
 * `keepAliveMs` keeps idle proxies from closing a long run's stream.
 */
export class SseStream {
  readonly #sink: SseSink;
  #pending = '';
  #scheduled = false;
  #closed = false;
  #started = false;
  readonly #keepAlive: NodeJS.Timeout | undefined;
  readonly #flush = (): void => {
    this.#scheduled = false;
    if (this.#closed) return;
    const text = this.#pending;
    this.#pending = '';
    const first = !this.#started;
    this.#started = true;
    if (text === '') {
      if (first) this.#sink.flushHeaders?.();
      return;
    }
    try {
      this.#sink.write(text);
    } catch {
      this.abandon();
    }
  };

  constructor(sink: SseSink, keepAliveMs = 15_000) {
    this.#sink = sink;
    if (keepAliveMs > 0) {
      this.#keepAlive = setInterval(() => this.#write(': keep-alive\n\n'), keepAliveMs);
      this.#keepAlive.unref();
    }
    this.#schedule();
  }

  /** True once closed (by us or by the client). */
  get closed(): boolean {
    return this.#closed;
  }

  /** Sends a named event whose data is `data` as JSON. */
  send(event: string, data: unknown): void {
    this.#write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Sends an unnamed `data:` frame (OpenAI-style streams). */
  data(text: string): void {
    this.#write(`data: ${text}\n\n`);
  }

  /** Writes what is queued, then ends the stream. */
  close(): void {
    if (this.#closed) return;
    this.#flush();
    if (this.#closed) return;
    this.#stop();
    try {
      this.#sink.end();
    } catch {
      // already closed by the client
    }
  }

  /** The client went away: drops what is queued and stops writing. */
  abandon(): void {
    this.#pending = '';
    this.#stop();
  }

  #write(frame: string): void {
    if (this.#closed) return;
    this.#pending += frame;
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    process.nextTick(this.#flush);
  }

  #stop(): void {
    this.#closed = true;
    clearInterval(this.#keepAlive);
  }
}

/**
 * An event stream as a Web Response (the Hono routes). `onClientGone` runs when the client goes
 * away (the body's reader is cancelled).
 */
export function webEventStream(onClientGone: () => void, options: { keepAliveMs?: number; headers?: Record<string, string> } = {}): { sse: SseStream; response: Response } {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: () => {
      sse.abandon();
      onClientGone();
    },
  });
  const sse = new SseStream({ write: (text) => controller?.enqueue(encoder.encode(text)), end: () => controller?.close() }, options.keepAliveMs);
  return { sse, response: new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...options.headers } }) };
}

/**
 * An event stream written straight to a Node response (the fast path): status 200 and the SSE
 * headers go out with the first frames. `onClientGone` runs when the connection closes before the
 * stream ended.
 */
export function nodeEventStream(res: ServerResponse, onClientGone: () => void, options: { keepAliveMs?: number; headers?: Readonly<Record<string, string>> } = {}): SseStream {
  res.writeHead(200, options.headers === undefined ? SSE_HEADERS : { ...SSE_HEADERS, ...options.headers });
  const sse = new SseStream({ write: (text) => void res.write(text), end: () => void res.end(), flushHeaders: () => res.flushHeaders() }, options.keepAliveMs);
  res.once('close', () => {
    if (res.writableFinished) return;
    sse.abandon();
    onClientGone();
  });
  return sse;
}
