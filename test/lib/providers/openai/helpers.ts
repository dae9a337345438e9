import { OpenAIProvider, type OpenAIProviderOptions } from '../../../../lib/providers/openai/index.js';
import type { ProviderRequest, StreamPart } from '../../../../lib/providers/spec.js';
import type { ReplayServer } from '../../../support/replay-server.js';

/** An OpenAIProvider on the real SDK, pointed at the replay server. */
export function providerFor(server: ReplayServer, options: OpenAIProviderOptions = {}): OpenAIProvider {
  return new OpenAIProvider({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, ...options });
}

/** A one-message request. */
export function ask(text: string, extra: Partial<ProviderRequest> = {}): ProviderRequest {
  return { model: 'gpt-4o', messages: [{ role: 'user', content: text }], ...extra };
}

/** Collects every part of a stream. */
export async function collect(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** The text of the text-delta parts. */
export function textOf(parts: readonly StreamPart[]): string {
  return parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('');
}

/** A Chat Completions message as sent on the wire (the fields the tests look at). */
export interface WireMessage {
  role: string;
  content?: string | null;
  tool_call_id?: string;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
}

/** A request body as the replay server received it (the fields the tests look at). */
export interface WireBody {
  model: string;
  stream?: boolean;
  stream_options?: unknown;
  messages: WireMessage[];
  tools?: { type: string; function: { name: string; description?: string } }[];
  input?: string[];
  dimensions?: number;
}

/** The JSON body of a recorded request. */
export function bodyOf(request: { json: unknown } | { body: unknown }): WireBody {
  return ('json' in request ? request.json : request.body) as WireBody;
}

/** A streamed chunk (the fields the tests look at). */
export interface WireChunk {
  choices: { delta?: { content?: string | null; refusal?: string | null } }[];
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
}

/** The JSON chunks of an SSE recording (`data: {…}` lines). */
export function dataChunks(sse: string): WireChunk[] {
  return sse
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)) as WireChunk);
}
