/**
 * Hand-written Anthropic replies with extended thinking, shared by the thinking, thinking-request
 * and cassette tests: a tool turn (a signed thinking block, a redacted block, a tool_use block) as
 * an SSE stream and as one JSON reply, and the final answer turn.
 */
import type { ReasoningPart } from '../../../../lib/core/reasoning-part.js';
import type { StreamPart } from '../../../../lib/providers/spec.js';

export const MODEL = 'claude-haiku-4-5-20251001';
export const SIGNATURE = 'EqQBCkgIBRABGAIiQL+/sig+with/slashes==';
export const REDACTED = 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj2pabTa0y1NWuSRpK+L';
export const THINKING = 'The user wants the weather. I will call get_weather.';

/** The reasoning parts the tool turn yields, in order. */
export const EXPECTED_PARTS: readonly ReasoningPart[] = [
  { type: 'thinking', provider: 'anthropic', text: THINKING, signature: SIGNATURE },
  { type: 'redacted', provider: 'anthropic', data: REDACTED },
];

/** The `reasoning-part` payloads of a list of stream parts. */
export const reasoningPartsOf = (parts: readonly StreamPart[]): ReasoningPart[] => parts.flatMap((p) => (p.type === 'reasoning-part' ? [p.part] : []));

/** An SSE body: `event: <type>` + `data: <json>` per event, as the API frames it. */
export function sse(events: readonly Record<string, unknown>[]): string {
  return events.map((e) => `event: ${String(e['type'])}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

/** A `message_start` event of the message `id`. */
export function messageStart(id: string, inputTokens = 50): Record<string, unknown> {
  return {
    type: 'message_start',
    message: { id, type: 'message', role: 'assistant', model: MODEL, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: inputTokens, output_tokens: 1 } },
  };
}

/** A streamed tool turn: a thinking block (text split in two deltas, signature in two), a redacted block, then a tool_use block. */
export function toolTurnStream(): string {
  return sse([
    messageStart('msg_t1'),
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'The user wants the weather. ' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'I will call get_weather.' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: SIGNATURE.slice(0, 10) } },
    { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: SIGNATURE.slice(10) } },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: REDACTED } },
    { type: 'content_block_stop', index: 1 },
    { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: {} } },
    { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"city": "Pa' } },
    { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: 'ris"}' } },
    { type: 'content_block_stop', index: 2 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 90 } },
    { type: 'message_stop' },
  ]);
}

/** The answer turn after the tool result, streamed. */
export function finalTurnStream(inputTokens = 50): string {
  return sse([
    messageStart('msg_t2', inputTokens),
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'It is sunny in Paris.' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 8 } },
    { type: 'message_stop' },
  ]);
}

/** The tool turn as one JSON reply (with a short text before the call). */
export function toolTurnJson(): Record<string, unknown> {
  return {
    id: 'msg_t1',
    type: 'message',
    role: 'assistant',
    model: MODEL,
    content: [
      { type: 'thinking', thinking: THINKING, signature: SIGNATURE },
      { type: 'redacted_thinking', data: REDACTED },
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
    ],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 50, output_tokens: 90 },
  };
}

/** The answer turn as one JSON reply. */
export function finalTurnJson(): Record<string, unknown> {
  return {
    id: 'msg_t2',
    type: 'message',
    role: 'assistant',
    model: MODEL,
    content: [{ type: 'text', text: 'It is sunny in Paris.' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 120, output_tokens: 8 },
  };
}
