import type { GenerateContentResponse, GenerateContentResponseUsageMetadata } from '@google/genai';
import { providerTransportError } from '../provider-errors.js';
import type { FinishReason, StreamPart } from '../spec.js';
import { malformedFunctionCall, mapFinishReason, readParts, toUsage } from './convert-response.js';
import { GEMINI } from './errors.js';

/**
 * Turns the SDK's chunk stream into StreamParts: text and thought deltas as they come, each
 * functionCall part as a whole tool call, each text-part thoughtSignature as a `reasoning-part`
 * (after that chunk's text; its part's text and offset counted over the whole stream), then the
 * last usageMetadata and the finish. A stream
 * that ends without a finishReason (or a prompt block) is a broken stream, not an answer. A
 * MALFORMED_FUNCTION_CALL finish becomes a tool call with `argumentsError` (or a retryable error),
 * as in `complete` (see malformedFunctionCall).
 */
export async function* toStreamParts(
  chunks: AsyncIterable<GenerateContentResponse>,
  model: string,
  onChunk: () => void,
  toolNames?: readonly string[],
): AsyncGenerator<StreamPart> {
  let usage: GenerateContentResponseUsageMetadata | undefined;
  let finishReason: string | undefined;
  let finishMessage: string | undefined;
  let blocked = false;
  let sawToolCall = false;
  let modelVersion: string | undefined;
  let responseId: string | undefined;
  // Answer text yielded so far: the offset of the next chunk's signed parts.
  let answered = 0;
  for await (const chunk of chunks) {
    onChunk();
    if (typeof chunk !== 'object' || chunk === null) throw providerTransportError(GEMINI, 'stream', 'malformed stream chunk', { model });
    if (chunk.usageMetadata) usage = chunk.usageMetadata;
    if (chunk.modelVersion !== undefined) modelVersion = chunk.modelVersion;
    if (chunk.responseId !== undefined) responseId = chunk.responseId;
    if (chunk.promptFeedback?.blockReason !== undefined) blocked = true;
    const candidate = chunk.candidates?.[0];
    const { text, reasoning, toolCalls, signatures } = readParts(candidate, answered);
    answered += text.length;
    if (reasoning !== '') yield { type: 'reasoning-delta', text: reasoning };
    if (text !== '') yield { type: 'text-delta', text };
    if (signatures) for (const part of signatures) yield { type: 'reasoning-part', part };
    for (const toolCall of toolCalls) {
      sawToolCall = true;
      yield { type: 'tool-call', toolCall };
    }
    if (candidate?.finishReason !== undefined) finishReason = candidate.finishReason;
    if (candidate?.finishMessage !== undefined) finishMessage = candidate.finishMessage;
  }
  if (finishReason === undefined && !blocked) {
    throw providerTransportError(GEMINI, 'stream', 'the stream ended without a finishReason', { model });
  }
  if (finishReason === 'MALFORMED_FUNCTION_CALL' && !sawToolCall) {
    yield { type: 'tool-call', toolCall: malformedFunctionCall(finishMessage, toolNames, modelVersion ?? model) };
    sawToolCall = true;
    finishReason = 'STOP';
  }
  const reported = toUsage(usage);
  if (reported) yield { type: 'usage', usage: reported };
  const reason: FinishReason = finishReason === undefined ? 'content-filter' : mapFinishReason(finishReason, sawToolCall);
  const finish: Extract<StreamPart, { type: 'finish' }> = { type: 'finish', finishReason: reason };
  if (modelVersion !== undefined) finish.model = modelVersion;
  if (responseId !== undefined) finish.requestId = responseId;
  yield finish;
}
