import { CancellationError } from '../core/errors/cancellation-error.js';
import { StructuredOutputError } from '../core/errors/structured-output-error.js';
import { assistantMessage, userMessage, type Message } from '../core/message.js';
import type { ToolCall } from '../core/tool-call.js';
import { callModel, type ModelReply } from './call-model.js';
import { executeToolCalls, outcomeMessages } from './execute-tools.js';
import { resolveToolCalls } from './resolve-tool-calls.js';
import type { RunState } from './run-state.js';
import { structuredRetryMessage } from './structured-output.js';
import type { RunStatus } from '../events/types.js';

/** What the loop ends with; the Agent turns it into an AgentResult. */
export interface LoopOutcome {
  status: RunStatus;
  message: Message;
  parsed?: unknown;
  reasoning?: string;
}

/**
 * The agent loop (spec "States and transitions: Agent loop"): iteration start (cancellation,
 * budget), model selection, LLM request, response parsing (native calls or TOOL_CALL directive),
 * policy and tool execution, structured validation, and the final answer.
 */
export async function runLoop(state: RunState, maxIterations: number): Promise<LoopOutcome> {
  const { config } = state;
  let structuredAttempts = 0;
  let retryingStructured = false;
  let lastText = '';
  while (state.iteration < maxIterations || retryingStructured) {
    if (state.signal.aborted) return cancelled(state, 'iteration', lastText);
    const budget = budgetExceeded(state);
    if (budget) {
      await state.emit('budget-exceeded', budget);
      return { status: 'budget-exceeded', message: assistantMessage(partialText(lastText, 'the budget was exceeded')) };
    }
    // A structured-output retry stays inside the same iteration (it does not consume maxIterations).
    if (!retryingStructured) {
      state.iteration += 1;
      await state.emit('iteration-start', { iteration: state.iteration });
      selectModel(state);
    }
    const iteration = state.iteration;

    let reply: ModelReply;
    try {
      reply = await callModel(state, await messagesForModel(state));
    } catch (error) {
      if (state.signal.aborted) return cancelled(state, 'llm', lastText);
      throw error;
    }
    state.usage.addLlmCall(reply.usage);
    state.providerUsed = reply.provider;
    const resolved = resolveToolCalls(state, reply.message.toolCalls, reply.message.content);
    const text = resolved.text;
    // The provider's opaque reasoning blocks / signatures stay on the reply's message in the history.
    const reasoningParts = reply.message.reasoningParts;
    if (text) lastText = text;
    const reasoning = [reply.reasoning, resolved.calls.length > 0 ? text : ''].filter(Boolean).join('\n');
    if (retryingStructured) state.reasoningHistory[state.reasoningHistory.length - 1] = reasoning;
    else state.reasoningHistory.push(reasoning);
    retryingStructured = false;
    await emitLlmEnd(state, reply, resolved.calls, reasoning);
    await warnOnCost(state);
    // Cancelled while the provider was answering: stop before acting on the reply.
    if (state.signal.aborted) return cancelled(state, 'llm', lastText);

    if (resolved.calls.length === 0 && resolved.errors.length > 0) {
      state.messages.push(assistantMessage(reply.message.content, undefined, reasoningParts), userMessage(directiveErrorText(resolved.errors)));
      await state.emit('iteration-end', { iteration, toolCalls: 0 });
      continue;
    }

    if (resolved.calls.length === 0) {
      if (state.responseFormat) {
        const check = await state.responseFormat.check(text);
        structuredAttempts += 1;
        await state.emit('structured-validate', {
          iteration,
          attempt: structuredAttempts,
          valid: check.ok,
          issues: check.ok ? [] : check.issues,
        });
        if (!check.ok) {
          if (structuredAttempts > config.structuredRetries) {
            throw new StructuredOutputError({ text, issues: check.issues });
          }
          state.messages.push(assistantMessage(text, undefined, reasoningParts), userMessage(structuredRetryMessage(check.issues)));
          retryingStructured = true;
          continue;
        }
        const message = assistantMessage(text, undefined, reasoningParts);
        state.messages.push(message);
        await state.emit('iteration-end', { iteration, toolCalls: 0 });
        return { status: 'completed', message, parsed: check.value, ...lastReasoning(state) };
      }
      const message = assistantMessage(text, undefined, reasoningParts);
      state.messages.push(message);
      await state.emit('iteration-end', { iteration, toolCalls: 0 });
      return { status: 'completed', message, ...lastReasoning(state) };
    }

    state.toolCalls.push(...resolved.calls);
    if (config.routingOnly) {
      const message = assistantMessage(text, resolved.calls);
      await state.emit('iteration-end', { iteration, toolCalls: resolved.calls.length });
      return { status: 'routing-only', message, ...lastReasoning(state) };
    }
    state.messages.push(assistantMessage(text, resolved.calls, reasoningParts));
    const outcomes = await executeToolCalls(state, resolved.calls);
    state.messages.push(...outcomeMessages(outcomes));
    if (resolved.errors.length > 0) state.messages.push(userMessage(directiveErrorText(resolved.errors)));
    await state.emit('iteration-end', { iteration, toolCalls: resolved.calls.length });

    if (state.signal.aborted) return cancelled(state, 'tools', lastText);
    const terminal = outcomes.find((o) => o.terminal);
    if (terminal) {
      return { status: 'terminal-tool', message: assistantMessage(terminal.content), ...lastReasoning(state) };
    }
    if (config.stopCondition) {
      const stop = await config.stopCondition({
        iteration,
        toolCalls: resolved.calls,
        results: outcomes.map((o) => ({ toolName: o.call.toolName, content: o.content, isError: o.isError })),
        messages: state.messages,
      });
      if (stop) {
        const last = outcomes.at(-1);
        return { status: 'stop-condition', message: assistantMessage(last?.content ?? lastText), ...lastReasoning(state) };
      }
    }
  }
  const note = `Stopped after reaching the maximum of ${maxIterations} iterations without a final answer.`;
  return { status: 'max-iterations', message: assistantMessage(lastText ? `${lastText}\n\n${note}` : note), ...lastReasoning(state) };
}

function lastReasoning(state: RunState): { reasoning?: string } {
  for (let i = state.reasoningHistory.length - 1; i >= 0; i--) {
    const entry = state.reasoningHistory[i];
    if (entry) return { reasoning: entry };
  }
  return {};
}

function partialText(lastText: string, why: string): string {
  const note = `Stopped early: ${why}.`;
  return lastText ? `${lastText}\n\n${note}` : note;
}

async function cancelled(state: RunState, stage: 'iteration' | 'llm' | 'tools', lastText: string): Promise<LoopOutcome> {
  const reason: unknown = state.signal.reason;
  const event: { stage: typeof stage; iteration: number; reason?: string } = { stage, iteration: state.iteration };
  if (reason instanceof Error && !CancellationError.isInstance(reason)) event.reason = reason.message;
  else if (typeof reason === 'string') event.reason = reason;
  await state.emit('cancelled', event);
  return { status: 'cancelled', message: assistantMessage(partialText(lastText, 'the run was cancelled')) };
}

function budgetExceeded(state: RunState): { kind: 'tokens' | 'cost'; limit: number; actual: number } | undefined {
  const { maxTotalTokens, maxCostUsd } = state.config.budget;
  if (maxTotalTokens !== undefined && state.usage.totalTokens >= maxTotalTokens) {
    return { kind: 'tokens', limit: maxTotalTokens, actual: state.usage.totalTokens };
  }
  if (maxCostUsd !== undefined && state.usage.totalCostUsd >= maxCostUsd) {
    return { kind: 'cost', limit: maxCostUsd, actual: state.usage.totalCostUsd };
  }
  return undefined;
}

async function warnOnCost(state: RunState): Promise<void> {
  const threshold = state.config.budget.costWarningThreshold;
  if (threshold === undefined || state.costWarned || state.usage.totalCostUsd < threshold) return;
  state.costWarned = true;
  await state.emit('cost-warning', { threshold, costUsd: state.usage.totalCostUsd });
}

function selectModel(state: RunState): void {
  const selector = state.config.modelSelector;
  if (!selector) return;
  const next = selector({ iteration: state.iteration, messages: state.messages, usage: state.usage, currentModel: state.model });
  if (next && next !== state.model) {
    void state.emit('model-switch', { iteration: state.iteration, from: state.model, to: next });
    state.model = next;
  }
}

async function messagesForModel(state: RunState): Promise<readonly Message[]> {
  let messages: readonly Message[] = state.messages;
  for (const extension of state.config.extensions) {
    const next = await extension.beforeModel?.(state.extensionContext, messages);
    if (next) messages = next;
  }
  return messages;
}

async function emitLlmEnd(state: RunState, reply: ModelReply, calls: ToolCall[], reasoning: string): Promise<void> {
  const payload = {
    iteration: state.iteration,
    provider: reply.provider,
    model: state.model,
    durationMs: reply.durationMs,
    usage: reply.usage,
    finishReason: reply.finishReason,
    content: reply.message.content,
    toolCalls: calls,
  };
  await state.emit('usage', { iteration: state.iteration, usage: reply.usage, total: state.usage.totals() });
  const event = reply.cached ? { ...payload, cached: true } : payload;
  await state.emit('llm-end', reasoning ? { ...event, reasoning } : event);
}

function directiveErrorText(errors: readonly string[]): string {
  return `Your tool call could not be parsed:\n${errors.map((e) => `- ${e}`).join('\n')}\nSend the call again with valid JSON.`;
}
