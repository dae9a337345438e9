import { connect, createServer, type Socket } from 'node:net';

/** A loopback TCP proxy whose replies can be held back, as a hung (SIGSTOPped) server's are. */
export interface FreezableProxy {
  /** The proxy's address with the target's scheme (`redis://127.0.0.1:PORT`). */
  url: string;
  /** From now on, hold back what the server sends. */
  freeze(): void;
  /** Let the held replies through, and the later ones. */
  thaw(): void;
  close(): Promise<void>;
}

/**
 * A proxy in front of the real server at `target` (a URL with host and port) that can stop passing
 * the server's replies on after the connection is made: the client stays connected and its
 * requests reach the server, but no answer comes back until `thaw()`.
 */
export async function freezableProxy(target: string, defaultPort = 6379): Promise<FreezableProxy> {
  const { protocol, hostname, port } = new URL(target);
  let frozen = false;
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(port || defaultPort), hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (frozen) held.push(() => client.write(chunk));
      else client.write(chunk);
    });
    for (const socket of [client, upstream]) socket.on('error', () => socket.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `${protocol}//127.0.0.1:${address.port}`,
    freeze: () => void (frozen = true),
    thaw: () => {
      frozen = false;
      for (const write of held.splice(0)) write();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
