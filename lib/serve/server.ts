/// <reference types="node" preserve="true" />
// agentlib/serve hands out node:http types (the request listener, the Server): its declarations need @types/node.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DrainResult } from './run-tracker.js';
import type { ServeApp } from './app.js';

/** A listening server. */
export interface RunningServer {
  /** `http://<host>:<port>` */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  /**
   * Graceful stop: new requests get 503 while in-flight ones finish (at most `graceMs`, then they
   * are aborted), then the server closes and its idle connections are dropped.
   */
  close(graceMs?: number): Promise<DrainResult>;
}

/** Options of {@link listen}. */
export interface ListenOptions {
  /** Default 8000; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Serves `served` over HTTP/1.1 on `host:port`: a `node:http` server with `served.requestListener()`
 * (`POST /invoke` and `/stream` on the fast path, the rest through Hono and @hono/node-server).
 */
export async function listen(served: Pick<ServeApp, 'requestListener' | 'shutdown'>, options: ListenOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer(served.requestListener({ hostname: host }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8000, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<DrainResult> | undefined;
  return {
    url: `http://${urlHost(host)}:${port}`,
    port,
    server,
    close: (graceMs) => {
      closing ??= (async () => {
        const drained = await served.shutdown(graceMs);
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          // Connections still open after a short while (a client holding a keep-alive socket mid-request) are cut.
          setTimeout(() => server.closeAllConnections(), 1000).unref();
        });
        return drained;
      })();
      return closing;
    },
  };
}
