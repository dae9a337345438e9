const encoder = new TextEncoder();

/** Response headers of an event stream (no caching, no proxy buffering). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
};

/**
 * A `text/event-stream` response written as events happen: each `send` enqueues one complete
 * frame (`event: <name>\ndata: <json>\n\n`), which the Node adapter writes to the socket at once.
 * `onCancel` runs when the client goes away (the reader is cancelled). A comment line every
 * `keepAliveMs` keeps idle proxies from closing a long run's stream.
 */
export class SseStream {
  readonly response: Response;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #closed = false;
  readonly #keepAlive: NodeJS.Timeout | undefined;

  constructor(onCancel: () => void, options: { headers?: Record<string, string>; keepAliveMs?: number } = {}) {
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => {
        this.#stop();
        onCancel();
      },
    });
    this.response = new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...options.headers } });
    const keepAliveMs = options.keepAliveMs ?? 15_000;
    if (keepAliveMs > 0) {
      this.#keepAlive = setInterval(() => this.#write(': keep-alive\n\n'), keepAliveMs);
      this.#keepAlive.unref();
    }
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

  /** Ends the stream. */
  close(): void {
    if (this.#closed) return;
    this.#stop();
    try {
      this.#controller.close();
    } catch {
      // already closed by a cancel
    }
  }

  #write(frame: string): void {
    if (this.#closed) return;
    try {
      this.#controller.enqueue(encoder.encode(frame));
    } catch {
      this.#stop();
    }
  }

  #stop(): void {
    this.#closed = true;
    clearInterval(this.#keepAlive);
  }
}
