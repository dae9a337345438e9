import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AnthropicError, APIError } from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import { AnthropicEventReader } from '../../../../lib/providers/anthropic/sse-events.js';

/** A real fetch Response whose body yields `pieces` one read at a time. */
function responseOf(pieces: string[], headers: Record<string, string> = {}): Response {
  const encoder = new TextEncoder();
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces[next++];
      if (piece === undefined) controller.close();
      else controller.enqueue(encoder.encode(piece));
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream', ...headers } });
}

const event = (type: string, data: unknown): string => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
const delta = (text: string): string => event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });

/** Every event until the end of the body. */
async function readAll(reader: AnthropicEventReader): Promise<RawMessageStreamEvent[]> {
  const events: RawMessageStreamEvent[] = [];
  while (await reader.read()) for (let e = reader.next(); e !== undefined; e = reader.next()) events.push(e);
  return events;
}

describe('AnthropicEventReader', () => {
  test('the SDK rules: ping, events without an event field and events without data are skipped; the rest parsed in order', async () => {
    const reader = new AnthropicEventReader(
      responseOf([
        event('message_start', { type: 'message_start', message: { model: 'claude' } }) + 'event: ping\ndata: {"type": "ping"}\n\n' + delta('Hel'),
        'data: {"type":"no event field"}\n\n' + 'event: content_block_stop\n\n' + delta('lo') + event('message_stop', { type: 'message_stop' }),
      ]),
    );
    const events = await readAll(reader);
    assert.deepEqual(
      events.map((e) => (e.type === 'content_block_delta' && e.delta.type === 'text_delta' ? e.delta.text : e.type)),
      ['message_start', 'Hel', 'lo', 'message_stop'],
    );
  });

  test('an error event is the SDK APIError: no status, its body and type, the request id from the headers', async () => {
    const body = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    const reader = new AnthropicEventReader(responseOf([delta('partial') + event('error', body)], { 'request-id': 'req_42' }));
    assert.equal(await reader.read(), true);
    assert.equal(reader.next()?.type, 'content_block_delta', 'the event before the error comes first');
    assert.throws(
      () => reader.next(),
      (error: unknown) => {
        assert.ok(error instanceof APIError);
        assert.equal(error.status, undefined);
        assert.deepEqual(error.error, body);
        assert.equal(error.type, 'overloaded_error');
        assert.equal(error.requestID, 'req_42');
        return true;
      },
    );
  });

  test('an error event whose data is not JSON keeps the text as its body', async () => {
    const reader = new AnthropicEventReader(responseOf(['event: error\ndata: upstream gone\n\n']));
    assert.equal(await reader.read(), true);
    assert.throws(() => reader.next(), (error: unknown) => error instanceof APIError && error.error === 'upstream gone');
  });

  test('malformed JSON in a data event is a SyntaxError', async () => {
    const reader = new AnthropicEventReader(responseOf(['event: content_block_delta\ndata: {"type":\n\n']));
    assert.equal(await reader.read(), true);
    assert.throws(() => reader.next(), SyntaxError);
  });

  test('a response without a body is the SDK error for it', () => {
    assert.throws(() => new AnthropicEventReader(new Response(null)), (error: unknown) => error instanceof AnthropicError && /no body/.test(error.message));
  });
});
