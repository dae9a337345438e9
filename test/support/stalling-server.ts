// A loopback HTTP server that accepts every request and then goes silent: with no `head`, it never
// answers (no status line, no headers); with `head`, it sends the status, the headers and these
// first body bytes, then holds the response open without another byte. `close()` drops the sockets.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server sends before it goes silent. */
export interface StallScript {
  /** The start of the body (a stream's first chunks); none: no response at all. */
  head?: string;
  /** Response headers (with `head`). Default `text/event-stream`. */
  headers?: Record<string, string>;
}

/** A running stalling server. */
export interface StallingServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Requests received so far. */
  readonly received: () => number;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 that answers every request by `script`, then stays silent. */
export async function startStallingServer(script: StallScript = {}): Promise<StallingServer> {
  let received = 0;
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    received++;
    // The request body is read (so the client finishes sending); the response never ends.
    req.resume();
    held.push(res);
    if (script.head === undefined) return;
    res.writeHead(200, script.headers ?? { 'content-type': 'text/event-stream' });
    res.write(script.head);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
