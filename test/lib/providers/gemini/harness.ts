// Shared setup of the Gemini adapter tests: a replay server and a GeminiProvider on the real SDK pointed at it.
import { GeminiProvider, type GeminiProviderOptions } from '../../../../lib/providers/gemini/index.js';
import type { ProviderRequest, StreamPart } from '../../../../lib/providers/spec.js';
import { fixture, sseResponse, startReplayServer, type ReplayResponse, type ReplayServer } from '../../../support/replay-server.js';

export const KEY = 'test-key';

/** A provider talking to `server`. */
export function geminiOn(server: ReplayServer, options: GeminiProviderOptions = {}): GeminiProvider {
  return new GeminiProvider({ apiKey: KEY, baseURL: server.url, ...options });
}

/** Starts a replay server (close it in `after`). */
export async function startServer(): Promise<ReplayServer> {
  return startReplayServer();
}

/** Collects every part of a stream. */
export async function collect(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** A one-user-message request. */
export function ask(text: string, extra: Partial<ProviderRequest> = {}): ProviderRequest {
  return { model: 'gemini-2.5-flash', messages: [{ role: 'user', content: text }], ...extra };
}

interface Recording {
  interactions: { request: { url: string; bodySegments: unknown[] }; response: { statusCode: number; bodySegments: unknown[] } }[];
}

/** A js-genai `*.recording.json`: each exchange's request body and its response re-framed as Gemini SSE (CRLF). */
export function genaiRecording(name: string): { url: string; request: unknown; response: ReplayResponse }[] {
  const data = JSON.parse(fixture(`google/${name}`).toString('utf8')) as Recording;
  return data.interactions.map(({ request, response }) => ({
    url: request.url,
    request: request.bodySegments[0],
    response: sseResponse(response.bodySegments.map((segment) => `data: ${JSON.stringify(segment)}\r\n\r\n`).join('')),
  }));
}

/** Text of the stream's text-delta parts. */
export function textOf(parts: readonly StreamPart[]): string {
  return parts.flatMap((p) => (p.type === 'text-delta' ? [p.text] : [])).join('');
}

/** Text of the stream's reasoning-delta parts. */
export function reasoningOf(parts: readonly StreamPart[]): string {
  return parts.flatMap((p) => (p.type === 'reasoning-delta' ? [p.text] : [])).join('');
}
