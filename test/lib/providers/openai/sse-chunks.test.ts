import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { APIError, OpenAIError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { SseChunkReader } from '../../../../lib/providers/openai/sse-chunks.js';

/** A real fetch Response whose body yields `pieces` one read at a time; reports what the reader did to it. */
function responseOf(pieces: (string | Uint8Array)[], headers: Record<string, string> = {}): { response: Response; state: { pulled: number; cancelled: boolean } } {
  const state = { pulled: 0, cancelled: false };
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces[state.pulled++];
      if (piece === undefined) controller.close();
      else controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { response: new Response(body, { headers: { 'content-type': 'text/event-stream', ...headers } }), state };
}

const chunk = (content: string): string => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`;
const contentOf = (chunks: readonly (ChatCompletionChunk | undefined)[]): string[] => chunks.map((c) => c?.choices[0]?.delta.content ?? '');

/** The chunks available now (until `next()` gives undefined). */
function take(reader: SseChunkReader): ChatCompletionChunk[] {
  const chunks: ChatCompletionChunk[] = [];
  for (let chunk = reader.next(); chunk !== undefined; chunk = reader.next()) chunks.push(chunk);
  return chunks;
}

/** Every read until the end: the chunks each read made available (reads that completed none left out). */
async function readAll(reader: SseChunkReader): Promise<string[][]> {
  const reads: string[][] = [];
  while (await reader.read()) {
    const chunks = take(reader);
    if (chunks.length > 0) reads.push(contentOf(chunks));
  }
  return reads;
}

describe('SseChunkReader', () => {
  test('a read makes the chunks of its complete events available; a partial event waits for the next read', async () => {
    const { response } = responseOf([chunk('a') + chunk('b') + chunk('c').slice(0, 20), chunk('c').slice(20) + 'data: [DONE]\n\n']);
    assert.deepEqual(await readAll(new SseChunkReader(response)), [['a', 'b'], ['c']]);
  });

  test('a multi-byte character split across network reads decodes whole', async () => {
    const bytes = new TextEncoder().encode(chunk('héllo 🌍 wörld') + 'data: [DONE]\n\n');
    const emoji = new TextEncoder().encode(chunk('héllo ')).length + 2; // inside the 4-byte emoji
    const { response } = responseOf([bytes.subarray(0, emoji), bytes.subarray(emoji, emoji + 1), bytes.subarray(emoji + 1)]);
    assert.deepEqual((await readAll(new SseChunkReader(response))).flat(), ['héllo 🌍 wörld']);
  });

  test('a large read is decoded in steps: characters cut at every step boundary come out whole', async () => {
    const contents = Array.from({ length: 400 }, (_, i) => `ü🌍${'x'.repeat(i % 7)}é`);
    const { response } = responseOf([contents.map(chunk).join('') + 'data: [DONE]\n\n']);
    const reader = new SseChunkReader(response);
    assert.equal(await reader.read(), true);
    assert.deepEqual(contentOf([reader.next()]), [contents[0]], 'the first chunk, taken alone');
    assert.deepEqual(contentOf(take(reader)), contents.slice(1));
    assert.equal(await reader.read(), false);
  });

  test('an empty network read between the CR and the LF of a line end changes nothing', async () => {
    // Two data lines of one event (joined with a newline, still one JSON document).
    const { response } = responseOf(['data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,\r', new Uint8Array(0), '\ndata: "delta":{"content":"ok"}}]}\r\n\r\n']);
    assert.deepEqual((await readAll(new SseChunkReader(response))).flat(), ['ok']);
  });

  test('one event of a megabyte in one read comes out whole', async () => {
    const long = 'y'.repeat(1_000_000);
    const { response } = responseOf([chunk('a') + chunk(long) + chunk('b') + 'data: [DONE]\n\n']);
    assert.deepEqual((await readAll(new SseChunkReader(response))).flat(), ['a', long, 'b']);
  });

  test('[DONE] ends the chunks, and the rest of the body is still read to its end', async () => {
    const { response, state } = responseOf([chunk('a') + 'data: [DONE]\n\n' + chunk('after'), chunk('later'), ': trailing\n\n']);
    assert.deepEqual((await readAll(new SseChunkReader(response))).flat(), ['a']);
    assert.equal(state.pulled, 4, 'every piece was read, then the close');
    assert.equal(state.cancelled, false);
  });

  test('an event whose JSON has an error is the SDK APIError, without status, with the response headers', async () => {
    const { response } = responseOf(['data: {"error":{"message":"overloaded","type":"server_error","code":"overloaded"}}\n\n'], { 'x-request-id': 'req_9' });
    const reader = new SseChunkReader(response);
    assert.equal(await reader.read(), true);
    assert.throws(() => reader.next(), (error: unknown) => {
      assert.ok(error instanceof APIError);
      assert.equal(error.status, undefined);
      assert.equal(error.requestID, 'req_9');
      assert.equal(error.code, 'overloaded');
      assert.match(error.message, /overloaded/);
      return true;
    });
  });

  test('chunks are parsed one at a time: a bad event after good ones of the same read fails only when it is reached', async () => {
    const { response } = responseOf([chunk('a') + chunk('b') + 'data: {"choices":[{"delta"\n\n' + chunk('c')]);
    const reader = new SseChunkReader(response);
    assert.equal(await reader.read(), true);
    assert.deepEqual(contentOf([reader.next(), reader.next()]), ['a', 'b']);
    assert.throws(() => reader.next(), SyntaxError);
  });

  test('the last event is kept when the body ends right after it; an unterminated one is dropped', async () => {
    const { response } = responseOf([chunk('a').trimEnd(), '\n\n']);
    assert.deepEqual((await readAll(new SseChunkReader(response))).flat(), ['a']);
    const cut = responseOf([chunk('a') + chunk('b').trimEnd()]);
    assert.deepEqual((await readAll(new SseChunkReader(cut.response))).flat(), ['a']);
  });

  test('cancel() cancels the body; later reads end', async () => {
    const { response, state } = responseOf([chunk('a'), chunk('b'), chunk('c')]);
    const reader = new SseChunkReader(response);
    assert.equal(await reader.read(), true);
    assert.deepEqual(contentOf(take(reader)), ['a']);
    await reader.cancel();
    assert.equal(state.cancelled, true);
    assert.equal(await reader.read(), false);
  });

  test('a response without a body is the SDK error for it', () => {
    assert.throws(() => new SseChunkReader(new Response(null)), (error: unknown) => error instanceof OpenAIError && /no body/.test(error.message));
  });
});
