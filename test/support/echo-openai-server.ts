// A loopback OpenAI-compatible chat server for tests of multi-agent runs (graphs): it answers every
// POST /v1/chat/completions with a text derived from the request — `<system prompt's first word>:
// <last user message>` — streamed (SSE, one chunk per word, usage at the end) or not, as the request
// asks. Deterministic, so several agents calling in any order get their own answers; the real
// OpenAI SDK talks to it over HTTP.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running echo server. */
export interface EchoOpenAIServer {
  /** `http://127.0.0.1:<port>/v1` (an OpenAI base URL). */
  readonly baseUrl: string;
  /** Requests answered so far. */
  readonly calls: number;
  close(): Promise<void>;
}

interface ChatBody {
  model?: string;
  stream?: boolean;
  messages?: { role: string; content: unknown }[];
}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : '')).join('');
  return '';
}

/** The answer to a chat request: the system prompt's first word, then the last user message. */
export function echoAnswer(body: ChatBody): string {
  const messages = body.messages ?? [];
  const system = text(messages.find((m) => m.role === 'system')?.content).trim().split(/\s+/)[0] ?? '';
  const user = text(messages.findLast((m) => m.role === 'user')?.content);
  return `${system || 'assistant'}: ${user}`;
}

async function readJson(req: IncomingMessage): Promise<ChatBody> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return JSON.parse(Buffer.concat(parts).toString('utf8')) as ChatBody;
}

/** Starts the server on a free loopback port. */
export async function startEchoOpenAIServer(): Promise<EchoOpenAIServer> {
  let calls = 0;
  const server = createServer((req, res) => {
    void readJson(req).then((body) => {
      calls += 1;
      const answer = echoAnswer(body);
      const model = body.model ?? 'gpt-4o-mini';
      const usage = { prompt_tokens: 10, completion_tokens: answer.split(' ').length, total_tokens: 10 + answer.split(' ').length };
      if (body.stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: `chatcmpl-${calls}`, object: 'chat.completion', created: 1, model, choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }], usage }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null, extra: object = {}): string =>
        `data: ${JSON.stringify({ id: `chatcmpl-${calls}`, object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
      const words = answer.split(/(?<= )/);
      res.write(chunk({ role: 'assistant', content: '' }, null));
      for (const word of words) res.write(chunk({ content: word }, null));
      res.write(chunk({}, 'stop'));
      res.write(`data: ${JSON.stringify({ id: `chatcmpl-${calls}`, object: 'chat.completion.chunk', created: 1, model, choices: [], usage })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get calls() {
      return calls;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
