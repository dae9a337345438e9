import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import { chunksToParts } from '../../../../lib/providers/openai/index.js';
import type { StreamPart } from '../../../../lib/providers/spec.js';
import { fixture } from '../../../support/replay-server.js';

// The 2025 recording: `"usage": null` on every chunk, then finish_reason, the usage chunk, [DONE].
const chunks = fixture('openai/chat.text.stream.langchaingo.sse')
  .toString('utf8')
  .split('\n')
  .filter((line) => line.startsWith('data: {'))
  .map((line) => JSON.parse(line.slice(6)) as ChatCompletionChunk);
const finishAt = chunks.findIndex((c) => c.choices[0]?.finish_reason === 'stop');
const reset = Object.assign(new TypeError('terminated'), { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });

/** The chunks up to `end`, then `failure` thrown (or a clean end). */
async function* source(end: number, failure?: Error): AsyncGenerator<ChatCompletionChunk> {
  yield* chunks.slice(0, end);
  if (failure !== undefined) throw failure;
}

async function run(end: number, failure?: Error): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const part of chunksToParts({ chunks: source(end, failure), provider: 'openai', model: 'gpt-4o' })) parts.push(part);
  return parts;
}

test('chunksToParts: a dropped connection after the finish reason and some output ends the stream as complete, without usage', async () => {
  const parts = await run(finishAt + 1, reset);
  assert.equal(parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join(''), '1, 2, 3, 4, 5');
  assert.deepEqual(parts.filter((p) => p.type === 'usage'), []);
  assert.deepEqual(parts.at(-1), { type: 'finish', finishReason: 'stop', model: 'gpt-3.5-turbo-0125' });
});

test('chunksToParts: before the finish reason, or with another failure, the error stands', async () => {
  await assert.rejects(run(finishAt, reset), (e: unknown) => e === reset);
  const bug = new TypeError("Cannot read properties of undefined (reading 'x')");
  await assert.rejects(run(finishAt + 1, bug), (e: unknown) => e === bug);
});

test('chunksToParts: a clean end after a finish reason with no output, before the promised usage chunk, is a retryable stream error', async () => {
  async function* empty(): AsyncGenerator<ChatCompletionChunk> {
    yield chunks[0]!;
    yield chunks[finishAt]!;
  }
  const parts: StreamPart[] = [];
  await assert.rejects(
    (async () => {
      for await (const part of chunksToParts({ chunks: empty(), provider: 'openai', model: 'gpt-4o' })) parts.push(part);
    })(),
    (e: unknown) => ProviderError.isInstance(e) && e.kind === 'stream' && e.retryable === true && /before the usage chunk/.test(e.message),
  );
  assert.deepEqual(parts, []);
});
