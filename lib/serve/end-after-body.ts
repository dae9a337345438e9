import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long and how much of a request body is read and dropped after an early answer. */
export const LINGER = {
  /** Bytes dropped at most; past them the connection is destroyed. */
  maxBytes: 64 * 1024 * 1024,
  /** A client that sends nothing for this long is cut off. */
  idleMs: 5000,
  /** The longest the drop may take. */
  maxMs: 30_000,
} as const;

/**
 * Ends `res` once its request body is in: at once when the parser has the whole body, otherwise
 * after the rest of the body was read and dropped. For an answer written before its body was read
 * (413, 401, 429, 408, 504): the answer is written first (`res.write`; with its Content-Length the
 * client can read it while it still sends), and ending waits. Ending at once would close the
 * connection under a client still sending when the connection must close (`Connection: close`
 * from the client, a 408): the kernel then answers the client's next bytes with a reset, which
 * can destroy the answer before the client reads it. Waiting also lets a keep-alive connection
 * carry the next request. Bounded (LINGER: 64 MiB, 5 s without a byte, 30 s in all), then the
 * connection is destroyed.
 */
export function endAfterBody(req: IncomingMessage, res: ServerResponse, end: () => void): void {
  if (req.complete || req.readableEnded || req.destroyed) {
    end();
    return;
  }
  let bytes = 0;
  let idle: NodeJS.Timeout | undefined;
  const started = performance.now();
  const cleanup = (): void => {
    clearTimeout(idle);
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', cut);
    req.off('close', cut);
  };
  // Too much, too slow, or the client errored or went away: the socket is dropped.
  const cut = (): void => {
    cleanup();
    res.destroy();
  };
  const arm = (): void => {
    clearTimeout(idle);
    idle = setTimeout(cut, Math.min(LINGER.idleMs, Math.max(0, LINGER.maxMs - (performance.now() - started))));
    idle.unref();
  };
  const onData = (chunk: Buffer): void => {
    bytes += chunk.length;
    if (bytes > LINGER.maxBytes) cut();
    else arm();
  };
  const onEnd = (): void => {
    cleanup();
    end();
  };
  arm();
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', cut);
  req.on('close', cut);
  req.resume();
}

type EndArgs = [] | [() => void] | [unknown, (() => void)?] | [unknown, BufferEncoding, (() => void)?];

/**
 * Makes `res.end(…)` go through {@link endAfterBody}: for responses written by others (Hono and
 * @hono/node-server), whose `end` call we do not make. What `end` is given is written at once.
 */
export function endAfterBodyOf(req: IncomingMessage, res: ServerResponse): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  res.end = ((...args: EndArgs): ServerResponse => {
    if (req.complete || req.readableEnded || req.destroyed) return end(...args);
    const last = args.at(-1);
    const callback = typeof last === 'function' ? (last as () => void) : undefined;
    const data = typeof args[0] === 'function' ? undefined : args[0];
    const encoding = typeof args[1] === 'string' ? args[1] : undefined;
    if (data !== undefined && data !== null) {
      if (encoding === undefined) write(data);
      else write(data, encoding);
    }
    endAfterBody(req, res, () => (callback === undefined ? end() : end(callback)));
    return res;
  }) as ServerResponse['end'];
}
