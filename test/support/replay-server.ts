// A loopback HTTP server that replays recorded provider traffic (fixtures/providers/) to the real
// SDKs, and injects faults (status codes, Retry-After, connection resets, hangs, streams cut short).
// Responses are queued: each request takes the next one, so a test scripts the exact exchange.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the recordings live. */
export const FIXTURES = fileURLToPath(new URL('../../fixtures/providers/', import.meta.url));

/** One scripted response. */
export interface ReplayResponse {
  status?: number;
  headers?: Record<string, string>;
  /** The body, sent at once (unless `chunks`). */
  body?: string | Buffer;
  /** The body in pieces, each after `chunkDelayMs` (streams). */
  chunks?: readonly (string | Buffer)[];
  chunkDelayMs?: number;
  /** Write this many body pieces, then wait for `until` (a promise the test resolves) before the rest. */
  holdAfter?: { chunks: number; until: Promise<unknown> };
  /** Destroy the socket after writing this many body bytes (a connection reset mid-response). */
  resetAfterBytes?: number;
  /** Destroy the socket without any response (connection reset before headers). */
  reset?: boolean;
  /** Never answer (the client's timeout must fire). */
  hang?: boolean;
}

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed JSON body, when it is JSON. */
  json: unknown;
}

/** A running replay server. */
export interface ReplayServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Queues responses for the next requests, in order. */
  enqueue(...responses: ReplayResponse[]): void;
  /** Responses still queued. */
  pending(): number;
  close(): Promise<void>;
}

/** Reads a fixture file (`openai/chat.text.nonstream.vercel.json`). */
export function fixture(path: string): Buffer {
  return readFileSync(join(FIXTURES, path));
}

interface Interactions {
  interactions: {
    request: { method: string; uri: string; body?: unknown };
    response: { status: { code: number } | number; headers?: Record<string, string>; body_file: string };
  }[];
}

/** The recorded requests of an `*.interactions.json` companion file (to compare what we send). */
export function recordedRequests(path: string): { method: string; uri: string; body: unknown }[] {
  const data = JSON.parse(fixture(path).toString('utf8')) as Interactions;
  return data.interactions.map((i) => ({ method: i.request.method, uri: i.request.uri, body: i.request.body }));
}

/** The recorded responses of an `*.interactions.json` file, ready to enqueue (status, content-type, Retry-After, body). */
export function recordedResponses(path: string): ReplayResponse[] {
  const dir = path.slice(0, path.lastIndexOf('/') + 1);
  const data = JSON.parse(fixture(path).toString('utf8')) as Interactions;
  return data.interactions.map(({ response }) => ({
    status: typeof response.status === 'number' ? response.status : response.status.code,
    headers: { ...response.headers },
    body: fixture(dir + response.body_file),
  }));
}

/**
 * Re-frames a `*.data-lines.txt` recording (one SSE data payload per line) as the provider sends it:
 * OpenAI `data: …\n\n` plus `data: [DONE]`; Anthropic with `event: <type>` lines; Gemini with CRLF.
 */
export function frameDataLines(text: string, provider: 'openai' | 'anthropic' | 'gemini'): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (provider === 'openai') return lines.map((l) => `data: ${l}\n\n`).join('') + 'data: [DONE]\n\n';
  if (provider === 'gemini') return lines.map((l) => `data: ${l}\r\n\r\n`).join('');
  return lines.map((l) => `event: ${(JSON.parse(l) as { type: string }).type}\ndata: ${l}\n\n`).join('');
}

/** A JSON response. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): ReplayResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) };
}

/** A text/event-stream response, optionally split into chunks of `size` bytes. */
export function sseResponse(body: string | Buffer, size?: number): ReplayResponse {
  const buffer = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const response: ReplayResponse = { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } };
  if (size === undefined) response.body = buffer;
  else response.chunks = Array.from({ length: Math.ceil(buffer.length / size) }, (_, i) => buffer.subarray(i * size, (i + 1) * size));
  return response;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

async function respond(res: ServerResponse, scripted: ReplayResponse): Promise<void> {
  if (scripted.reset) {
    res.socket?.destroy();
    return;
  }
  if (scripted.hang) return;
  const body = scripted.chunks ?? (scripted.body === undefined ? [] : [scripted.body]);
  res.writeHead(scripted.status ?? 200, scripted.headers ?? {});
  let written = 0;
  for (const [index, piece] of body.entries()) {
    if (index === scripted.holdAfter?.chunks) await scripted.holdAfter.until;
    const buffer = Buffer.isBuffer(piece) ? piece : Buffer.from(piece);
    const resetAfter = scripted.resetAfterBytes;
    if (resetAfter !== undefined && written + buffer.length > resetAfter) {
      // Destroyed once the partial body has been handed to the socket (not after a fixed delay).
      const partial = buffer.subarray(0, Math.max(0, resetAfter - written));
      await new Promise<void>((resolve) => res.write(partial, () => resolve()));
      res.socket?.destroy();
      return;
    }
    res.write(buffer);
    written += buffer.length;
    if (scripted.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, scripted.chunkDelayMs));
  }
  res.end();
}

/**
 * Resolves once the server holds more than `seen` requests — its scripted response is then taken
 * off the queue. An abort that must land while a request is in flight waits for this instead of a
 * fixed delay: an abort that came before the request reached the server would leave a `hang`
 * scripted for the next request.
 */
export async function requestReceived(server: Pick<ReplayServer, 'requests'>, seen: number, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (server.requests.length <= seen) {
    if (Date.now() > deadline) throw new Error(`the replay server got no request ${seen + 1} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Starts a replay server on 127.0.0.1 with a free port. Unscripted requests get a 599 JSON error. */
export async function startReplayServer(): Promise<ReplayServer> {
  const queue: ReplayResponse[] = [];
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      let json: unknown;
      try {
        json = text ? (JSON.parse(text) as unknown) : undefined;
      } catch {
        json = undefined;
      }
      requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, text, json });
      const next = queue.shift();
      if (!next) {
        res.writeHead(599, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `replay server: no response scripted for ${req.method} ${req.url}` } }));
        return;
      }
      await respond(res, next);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...responses) => void queue.push(...responses),
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
