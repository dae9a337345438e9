import { isNeverAborted } from '../core/linked-signal.js';
import { assistantMessage, type Message } from '../core/message.js';
import type { ReasoningPart } from '../core/reasoning-part.js';
import type { ToolCall } from '../core/tool-call.js';
import { makeUsage, type UsageStats } from '../core/usage.js';
import { serializeError } from '../events/serialized-error.js';
import { priceUsage } from '../providers/models/index.js';
import { withRetry } from '../providers/retry.js';
import type { FinishReason, ProviderNotice, ProviderRequest, ProviderResponse, ProviderUsage } from '../providers/spec.js';
import { cacheRead, cacheWrite } from './cache-io.js';
import { responseCacheHint, responseCacheKey } from './cache-key.js';
import type { RunState } from './run-state.js';
import { stripThink, ThinkFilter } from './think-filter.js';
import { estimateRunTokensSync, estimateTokensSync } from './token-estimate.js';

/** One LLM reply, normalised: answer text without `<think>`, reasoning apart, usage priced. */
export interface ModelReply {
  message: Message;
  reasoning: string;
  usage: UsageStats;
  finishReason: FinishReason;
  provider: string;
  cached: boolean;
  durationMs: number;
}

/** A cache entry for an LLM reply. */
interface CachedReply {
  message: Message;
  reasoning: string;
  usage: UsageStats;
  finishReason: FinishReason;
}

function isCachedReply(value: unknown): value is CachedReply {
  return typeof value === 'object' && value !== null && 'message' in value && 'usage' in value;
}

/**
 * Usage for a stream that reported none (an adapter or server that sends no usage frame): counted
 * from the request and the reply (chars / 4) and priced, marked `estimated`, never zero.
 */
function estimatedUsage(model: string, request: ProviderRequest, message: Message, reasoning: string): UsageStats {
  const promptTokens = estimateRunTokensSync({ ...(request.system === undefined ? {} : { system: request.system }), messages: request.messages, ...(request.tools ? { tools: request.tools } : {}) }).total;
  const completionTokens = estimateTokensSync([message]) + estimateTokensSync(reasoning);
  return { ...toUsageStats(model, { promptTokens, completionTokens }), estimated: true };
}

/** Normalises provider usage and prices it from the model registry when the adapter did not. */
export function toUsageStats(model: string, usage: ProviderUsage | undefined): UsageStats {
  if (!usage) return makeUsage({});
  const stats = makeUsage({
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    totalTokens: usage.totalTokens ?? usage.promptTokens + usage.completionTokens,
    costUsd: usage.costUsd ?? priceUsage(model, usage),
  });
  if (usage.reasoningTokens !== undefined) stats.reasoningTokens = usage.reasoningTokens;
  if (usage.cachedPromptTokens !== undefined) stats.cachedPromptTokens = usage.cachedPromptTokens;
  return stats;
}

/**
 * Calls the provider once for the current iteration: response cache (not when streaming), retries
 * with backoff (`llm-retry` before each sleep; never after a stream emitted output), `llm-start`,
 * text/reasoning deltas when streaming, usage pricing. Throws the provider's error when retries
 * are exhausted.
 */
export async function callModel(state: RunState, messages: readonly Message[]): Promise<ModelReply> {
  const { config } = state;
  const request: ProviderRequest = {
    model: state.model,
    system: state.systemPrompt,
    messages,
    temperature: config.temperature,
    maxTokens: config.maxTokens,
    onNotice: (notice) => onNotice(state, notice),
  };
  // A run nothing can cancel sends no signal: SDKs that combine signals (AbortSignal.any) would
  // otherwise grow the shared never-aborted one with every call.
  if (!isNeverAborted(state.signal)) request.signal = state.signal;
  if (state.toolSpecs.length > 0) request.tools = state.toolSpecs;
  if (state.responseFormat) request.responseFormat = state.responseFormat.spec;

  const cacheKey = config.cache && !state.streaming ? responseCacheKey(request) : undefined;
  const hint = cacheKey === undefined ? undefined : responseCacheHint(request);
  const site = { what: 'response' };
  if (cacheKey && hint) {
    const hit = await cacheRead(state, site, cacheKey, hint);
    if (isCachedReply(hit)) {
      await state.emit('cache-hit', { kind: 'response', iteration: state.iteration, key: cacheKey, model: state.model });
      if (config.verbose) process.stderr.write(`[agentlib] cache hit for ${state.model}\n`);
      return { ...hit, usage: { ...hit.usage, costUsd: 0 }, provider: state.providerUsed, cached: true, durationMs: 0 };
    }
  }

  await state.emit('llm-start', {
    iteration: state.iteration,
    provider: config.provider.name,
    model: state.model,
    messageCount: messages.length,
    toolCount: state.toolSpecs.length,
  });
  let emittedOutput = false;
  const started = config.runtime.now();
  const reply = await withRetry(
    async (_attempt, { signal }) => {
      // With a total deadline the attempt gets its own signal (caller's signal + time left).
      const attempt = signal !== undefined && signal !== state.signal ? { ...request, signal } : request;
      return state.streaming ? streamOnce(state, attempt, () => (emittedOutput = true)) : completeOnce(state, attempt);
    },
    config.retry,
    {
      signal: state.signal,
      sleep: config.runtime.sleep,
      random: config.runtime.random,
      now: config.runtime.now,
      shouldRetry: () => !emittedOutput,
      onRetry: ({ attempt, delayMs, error }) =>
        void state.emit('llm-retry', { provider: config.provider.name, attempt, delayMs, error: serializeError(error) }),
    },
  );
  reply.durationMs = config.runtime.now() - started;
  if (cacheKey && hint) {
    const entry: CachedReply = { message: reply.message, reasoning: reply.reasoning, usage: reply.usage, finishReason: reply.finishReason };
    await cacheWrite(state, site, cacheKey, entry, hint);
  }
  return reply;
}

function onNotice(state: RunState, notice: ProviderNotice): void {
  if (notice.type === 'llm-retry') {
    const { provider, attempt, delayMs, error } = notice;
    void state.emit('llm-retry', { provider, attempt, delayMs, error: serializeError(error) });
  } else {
    void state.emit('provider-fallback', { from: notice.from, to: notice.to, error: serializeError(notice.error) });
  }
}

async function completeOnce(state: RunState, request: ProviderRequest): Promise<ModelReply> {
  const response: ProviderResponse = await state.config.provider.complete(request);
  const { text, reasoning } = stripThink(response.message.content);
  const reasoningText = [response.reasoning ?? '', reasoning].filter(Boolean).join('\n');
  const message = assistantMessage(text, response.message.toolCalls, response.message.reasoningParts);
  const model = response.model ?? request.model;
  return {
    message,
    reasoning: reasoningText,
    // A reply without usage (an OpenAI-compatible server that sends none) is estimated, never zero.
    usage: response.usage ? toUsageStats(model, response.usage) : estimatedUsage(model, request, message, reasoningText),
    finishReason: response.finishReason,
    provider: response.provider ?? state.config.provider.name,
    cached: false,
    durationMs: 0,
  };
}

async function streamOnce(state: RunState, request: ProviderRequest, markEmitted: () => void): Promise<ModelReply> {
  const filter = new ThinkFilter();
  const textParts: string[] = [];
  const reasoningParts: string[] = [];
  const toolCalls: ToolCall[] = [];
  const reasoningBlocks: ReasoningPart[] = [];
  let usage: ProviderUsage | undefined;
  let finishReason: FinishReason = 'stop';
  let provider = state.config.provider.name;
  let model = request.model;
  const iteration = state.iteration;
  const emitDelta = state.emitDelta;
  // `markEmitted` only has to run once: after the first output the attempt is never retried.
  let emitted = false;
  // `filter.idle`, read after each `filter.push` (it changes nowhere else).
  let filterIdle = true;
  // Synchronous unless a blocking observer returned a promise: no async hop per chunk.
  const pushText = (text: string, reasoning: string): void | Promise<void> => {
    let pending: void | Promise<void> = undefined;
    if (reasoning) {
      reasoningParts.push(reasoning);
      if (!emitted) {
        emitted = true;
        markEmitted();
      }
      pending = emitDelta('reasoning-delta', iteration, reasoning);
    }
    if (text) {
      textParts.push(text);
      if (!emitted) {
        emitted = true;
        markEmitted();
      }
      if (pending !== undefined) return pending.then(() => emitDelta('text-delta', iteration, text));
      pending = emitDelta('text-delta', iteration, text);
    }
    return pending;
  };
  for await (const part of state.config.provider.stream(request)) {
    switch (part.type) {
      case 'text-delta': {
        const text = part.text;
        let pending: void | Promise<void>;
        if (filterIdle && !text.includes('<')) {
          // The per-chunk hot path: a chunk the think filter would pass through unchanged is
          // emitted as it is (no filter call, no result object, no pushText call).
          if (text === '') break;
          textParts.push(text);
          if (!emitted) {
            emitted = true;
            markEmitted();
          }
          pending = emitDelta('text-delta', iteration, text);
        } else {
          const out = filter.push(text);
          filterIdle = filter.idle;
          pending = pushText(out.text, out.reasoning);
        }
        if (pending !== undefined) await pending;
        break;
      }
      case 'reasoning-delta': {
        const pending = pushText('', part.text);
        if (pending !== undefined) await pending;
        break;
      }
      case 'tool-call':
        toolCalls.push(part.toolCall);
        emitted = true;
        markEmitted();
        break;
      case 'reasoning-part':
        reasoningBlocks.push(part.part);
        break;
      case 'usage':
        usage = part.usage;
        break;
      case 'finish':
        finishReason = part.finishReason;
        if (part.provider) provider = part.provider;
        if (part.model) model = part.model;
        break;
    }
  }
  const rest = filter.flush();
  await pushText(rest.text, rest.reasoning);
  const message = assistantMessage(textParts.join('').trim(), toolCalls, reasoningBlocks);
  const reasoning = reasoningParts.join('').trim();
  return {
    message,
    reasoning,
    usage: usage ? toUsageStats(model, usage) : estimatedUsage(model, request, message, reasoning),
    finishReason,
    provider,
    cached: false,
    durationMs: 0,
  };
}
