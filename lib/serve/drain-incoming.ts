import type { IncomingMessage } from 'node:http';

/** How much of an unread request body is read and dropped to keep the connection, and for how long (as @hono/node-server). */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;
const DRAIN_TIMEOUT_MS = 500;

/**
 * Drops the rest of a request body nobody read (a 413 by Content-Length, a 401 before the body),
 * so the keep-alive connection can carry the next request; past 64 MiB or 500 ms the socket is
 * closed instead. The same policy @hono/node-server applies to the requests Hono answers.
 */
export function drainIncoming(incoming: IncomingMessage): void {
  if (incoming.readableEnded || incoming.destroyed) return;
  let bytesRead = 0;
  const cleanup = (): void => {
    clearTimeout(timer);
    incoming.off('data', onData);
    incoming.off('end', cleanup);
    incoming.off('error', cleanup);
  };
  const forceClose = (): void => {
    cleanup();
    const socket = incoming.socket as (typeof incoming.socket & { destroySoon?: () => void }) | null;
    if (socket === null || socket.destroyed) return;
    if (typeof socket.destroySoon === 'function') socket.destroySoon();
    else socket.destroy();
  };
  const onData = (chunk: Buffer): void => {
    bytesRead += chunk.length;
    if (bytesRead > MAX_DRAIN_BYTES) forceClose();
  };
  const timer = setTimeout(forceClose, DRAIN_TIMEOUT_MS);
  timer.unref();
  incoming.on('data', onData);
  incoming.on('end', cleanup);
  incoming.on('error', cleanup);
  incoming.resume();
}
