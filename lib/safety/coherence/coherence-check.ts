import { userMessage } from '../../core/message.js';
import type { ToolCall } from '../../core/tool-call.js';
import { makeUsage } from '../../core/usage.js';
import type { AgentExtension, ExtensionContext } from '../../agent/extension.js';
import { priceUsage } from '../../providers/models/index.js';
import type { Provider } from '../../providers/spec.js';
import { COHERENCE_SYSTEM_PROMPT, coherencePrompt, parseCoherenceReply } from './coherence-prompt.js';

/** Defaults of the coherence check (REFERENCE.md §1). */
export const COHERENCE_DEFAULTS = { temperature: 0, maxTokens: 100, timeoutMs: 10_000 } as const;

/** Options of {@link coherenceCheck}. */
export interface CoherenceCheckOptions {
  /** The checker's provider (its own; it may be the agent's). */
  provider: Provider;
  /** The checker's model. Default: the provider's default model. */
  model?: string;
  /** Block the call when the check itself fails (error, timeout, unreadable reply). Default false: fail-open. */
  failClosed?: boolean;
  /** Time limit of the check's call. Default 10 000 ms. */
  timeoutMs?: number;
  /** Output token limit of the check. Default 100. */
  maxTokens?: number;
  /** Only check these tools (names). Default every tool. */
  tools?: readonly string[];
}

const MAX_TRACKED_RUNS = 1000;

/**
 * The intent check: before each tool call, one extra LLM call (its own provider and model,
 * temperature 0, ≤ 100 tokens, 10 s) asks whether the call serves the user's request. The user's
 * text and the arguments are fenced so they cannot instruct the checker. `INCOHERENT` blocks the
 * call: a `coherence-blocked` event, and the model is told the call was blocked, like a policy
 * denial. When the check's own call fails the tool call goes ahead (fail-open) unless `failClosed`.
 * The request checked is the run's last user message (after input guardrails).
 */
export function coherenceCheck(options: CoherenceCheckOptions): AgentExtension {
  const { provider } = options;
  const model = options.model ?? provider.defaultModel;
  const timeoutMs = options.timeoutMs ?? COHERENCE_DEFAULTS.timeoutMs;
  const maxTokens = options.maxTokens ?? COHERENCE_DEFAULTS.maxTokens;
  const only = options.tools === undefined ? undefined : new Set(options.tools);
  const requests = new Map<string, string>();

  async function ask(ctx: ExtensionContext, call: ToolCall, request: string): Promise<ReturnType<typeof parseCoherenceReply>> {
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)]);
    const response = await provider.complete({
      model,
      system: COHERENCE_SYSTEM_PROMPT,
      messages: [userMessage(coherencePrompt(request, call))],
      temperature: COHERENCE_DEFAULTS.temperature,
      maxTokens,
      signal,
    });
    if (response.usage !== undefined) {
      const { promptTokens, completionTokens } = response.usage;
      ctx.usage.addUsage(makeUsage({ promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, costUsd: response.usage.costUsd ?? priceUsage(model, response.usage) }));
    }
    return parseCoherenceReply(response.message.content);
  }

  return {
    name: 'coherence',
    checkInput(ctx, text) {
      if (requests.size >= MAX_TRACKED_RUNS) requests.delete(requests.keys().next().value as string);
      requests.set(ctx.runId, text);
      return text;
    },
    async beforeTool(ctx, call) {
      if (only !== undefined && !only.has(call.toolName)) return undefined;
      const request = requests.get(ctx.runId) ?? '';
      let verdict: ReturnType<typeof parseCoherenceReply> | { failed: string };
      try {
        verdict = await ask(ctx, call, request);
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        verdict = { failed: error instanceof Error ? error.message : String(error) };
      }
      if ('coherent' in verdict && verdict.coherent) return undefined;
      if ('coherent' in verdict) {
        await ctx.emit('coherence-blocked', { callId: call.id, toolName: call.toolName, reason: verdict.reason });
        return `the intent check found it does not match the user's request (${verdict.reason}). Do not retry it.`;
      }
      const problem = 'failed' in verdict ? `the check failed: ${verdict.failed}` : `the checker's reply was not COHERENT or INCOHERENT: ${JSON.stringify(verdict.unreadable)}`;
      if (options.failClosed !== true) return undefined;
      await ctx.emit('coherence-blocked', { callId: call.id, toolName: call.toolName, reason: problem, checkFailed: true });
      return `the intent check could not confirm it (${problem}) and is set to fail closed. Do not retry it.`;
    },
    afterRun(ctx) {
      requests.delete(ctx.runId);
    },
  };
}
