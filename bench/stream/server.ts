// A loopback SSE server for bench/provider-stream.ts, run in a child process (so its CPU time is not
// charged to the client being measured). Every POST gets the same pre-built bytes: a synthetic OpenAI
// Chat Completions stream of N text chunks, a finish_reason "stop" chunk, a usage chunk
// (`choices: []`) and `data: [DONE]`.
//
// Each SSE event is its own `res.write` (Nagle is off on Node's HTTP sockets, so each write is its
// own send); after every `batch` events the server yields with `setImmediate`, so the client sees
// many small reads rather than one buffered body.
//
// Protocol on stdout: first `{"port":…}`, then per response `{"firstByteNs":"…","requestBytes":…}`:
// process.hrtime.bigint() just before the first body write (headers go out with it), and the size
// of the request body (the client checks that every contender sent the same request).
//
//   node --import tsx bench/stream/server.ts --chunks 2000 --batch 16
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeStream } from '../lib/write-stream.js';

/** The text each content chunk carries. */
export const CHUNK_TEXT = 'tok ';
export const MODEL = 'gpt-4o-mini-2024-07-18';

/** The SSE events (one Buffer each) of a synthetic stream of `chunks` text deltas. */
export function buildEvents(chunks: number): Buffer[] {
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: MODEL, system_fingerprint: 'fp_bench' };
  const event = (data: unknown): Buffer => Buffer.from(`data: ${JSON.stringify(data)}\n\n`);
  const events: Buffer[] = [];
  events.push(event({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }] }));
  for (let i = 0; i < chunks; i++) {
    events.push(event({ ...base, choices: [{ index: 0, delta: { content: CHUNK_TEXT }, logprobs: null, finish_reason: null }] }));
  }
  events.push(event({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }] }));
  events.push(event({ ...base, choices: [], usage: { prompt_tokens: 8, completion_tokens: chunks, total_tokens: chunks + 8 } }));
  events.push(Buffer.from('data: [DONE]\n\n'));
  return events;
}


/** Starts the server on 127.0.0.1 (an ephemeral port) and returns its port. */
export async function serve(events: readonly Buffer[], batch: number): Promise<number> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    // Read the whole request body before answering, like a real API.
    let requestBytes = 0;
    req.on('data', (chunk: Buffer) => (requestBytes += chunk.length));
    req.on('end', () => writeStream(res, 'text/event-stream', events, batch, requestBytes));
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { chunks: { type: 'string', default: '2000' }, batch: { type: 'string', default: '16' } } });
  const port = await serve(buildEvents(Number(values.chunks)), Math.max(1, Number(values.batch)));
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  // Exit with the parent.
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}
