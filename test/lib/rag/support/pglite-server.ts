import type { AddressInfo } from 'node:net';

/** A PostgreSQL server with pgvector for tests: PGlite (in-process, WASM) behind its socket server on loopback. */
export interface PgliteServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts PGlite with its bundled vector extension behind @electric-sql/pglite-socket, so the store
 * talks to it with the real `pg` driver over TCP (Debian's PostgreSQL on this machine has no pgvector).
 */
export async function startPgliteServer(): Promise<PgliteServer> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { vector } = await import('@electric-sql/pglite-pgvector');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create({ extensions: { vector } });
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 10 });
  await server.start();
  const address = (server as unknown as { server: { address(): AddressInfo } }).server.address();
  return {
    url: `postgres://postgres@127.0.0.1:${address.port}/postgres`,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}
