import { connect, type Socket } from 'node:net';

/** What came back on a raw connection: the status (0: none), head and body of the first answer. */
export interface RawAnswer {
  status: number;
  head: string;
  body: string;
  /** The connection failed (ECONNRESET, EPIPE) before a whole answer was read. */
  error?: string;
}

/** A request written by hand on its own connection, so a test controls every byte and when it stops. */
export interface RawClient {
  socket: Socket;
  /** The first whole answer (by its Content-Length), or what there was when the connection ended. */
  answer: Promise<RawAnswer>;
  /** Writes `data`, waiting for the socket to take it (backpressure); rejects when the connection failed. */
  write(data: string | Buffer): Promise<void>;
}

/** The request routes whose bodies the tests send: the Node fast path and the Hono routes (decision 0006). */
export const BODY_ROUTES = [
  { label: 'fast path POST /invoke', path: '/invoke', body: '{"prompt":"hi"}' },
  { label: 'fast path POST /stream', path: '/stream', body: '{"prompt":"hi"}' },
  { label: 'Hono POST /invoke', path: '/invoke?via=hono', body: '{"prompt":"hi"}' },
  { label: 'Hono POST /stream', path: '/stream?via=hono', body: '{"prompt":"hi"}' },
  { label: 'Hono POST /v1/chat/completions', path: '/v1/chat/completions', body: '{"messages":[{"role":"user","content":"hi"}]}' },
] as const;

function parse(received: Buffer): RawAnswer | undefined {
  const end = received.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const head = received.subarray(0, end).toString('latin1');
  const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
  const body = received.subarray(end + 4);
  if (length === undefined || body.length < Number(length)) return undefined;
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body: body.subarray(0, Number(length)).toString('utf8') };
}

/**
 * Opens a connection to 127.0.0.1:`port` and writes the head of `POST path` with `headers` (Host
 * and a JSON Content-Type added). The body is the test's to write.
 */
export function openRaw(port: number, path: string, headers: Readonly<Record<string, string>>): RawClient {
  const socket = connect(port, '127.0.0.1');
  let received = Buffer.alloc(0);
  let failure: string | undefined;
  const answer = new Promise<RawAnswer>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const parsed = parse(received);
      if (parsed !== undefined) resolve(parsed);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      failure = error.code ?? error.message;
    });
    socket.on('close', () => resolve(parse(received) ?? { status: 0, head: received.toString('latin1'), body: '', error: failure ?? 'closed' }));
  });
  const lines = [`POST ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Content-Type: application/json', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  const write = (data: string | Buffer): Promise<void> =>
    new Promise((resolve, reject) => {
      if (socket.destroyed) {
        reject(new Error(failure ?? 'the connection is closed'));
        return;
      }
      socket.write(data, (error) => (error === undefined || error === null ? resolve() : reject(error)));
    });
  return { socket, answer, write };
}

/** One chunk of a chunked body. */
export function chunk(data: string | Buffer): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
}

/** `promise`, or a failure naming `what` after `ms` (a test that waits on the server never hangs). */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
