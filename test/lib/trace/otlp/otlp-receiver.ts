import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface ReceivedExport {
  path: string;
  contentType: string;
  body: Buffer;
}

/** A loopback OTLP/HTTP receiver: records each POST, answers with `statuses` in turn (then 200). */
export async function otlpReceiver(statuses: number[] = []): Promise<{ url: string; received: ReceivedExport[]; waitFor: (count: number) => Promise<void>; close: () => Promise<void> }> {
  const received: ReceivedExport[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const read = (request: IncomingMessage): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => resolve(Buffer.concat(chunks)));
      request.on('error', reject);
    });
  const server: Server = createServer((request, response) => {
    void read(request).then((body) => {
      received.push({ path: request.url ?? '', contentType: String(request.headers['content-type'] ?? ''), body });
      const status = statuses.shift() ?? 200;
      const json = String(request.headers['content-type']).includes('json');
      response.writeHead(status, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json && status === 200 ? '{}' : '');
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    waitFor: (count) => (received.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
