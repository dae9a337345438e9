import { AnthropicProvider } from '../../../../lib/providers/anthropic/index.js';
import type { ProviderTimeoutOptions } from '../../../../lib/providers/call-timeouts.js';
import type { ProviderRequest, StreamPart } from '../../../../lib/providers/spec.js';
import type { ReplayServer } from '../../../support/replay-server.js';

/** An AnthropicProvider on the real SDK, pointed at the replay server. */
export function providerFor(server: ReplayServer, extra: ProviderTimeoutOptions = {}): AnthropicProvider {
  return new AnthropicProvider({ apiKey: 'test-key', baseURL: server.url, ...extra });
}

/** Collects every part of a stream. */
export async function collect(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** A one-message request. */
export function ask(text: string, extra: Partial<ProviderRequest> = {}): ProviderRequest {
  return { model: 'claude-haiku-4-5', messages: [{ role: 'user', content: text }], ...extra };
}

/** The text of all text-delta parts. */
export const textOf = (parts: readonly StreamPart[]): string =>
  parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('');

/** The text of all reasoning-delta parts. */
export const reasoningOf = (parts: readonly StreamPart[]): string =>
  parts.map((p) => (p.type === 'reasoning-delta' ? p.text : '')).join('');
