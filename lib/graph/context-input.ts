import { Role } from '../core/role.js';
import { userMessage, type Message } from '../core/message.js';
import { AgentUsage } from '../core/usage.js';
import type { AgentInput } from '../agent/types.js';
import { priceUsage } from '../providers/models/pricing.js';
import { ContextMode, GRAPH_DEFAULTS, LAST_OUTPUT_KEY } from './constants.js';
import { outputText } from './node-return.js';
import type { ReadonlyGraphState } from './state.js';
import type { NodeOptions } from './types.js';

const SUMMARY_SYSTEM = 'Summarise the conversation below for the next participant: keep facts, decisions, open questions and the latest request. Be concise.';

/** The input an agent node gets, and the usage of building it (SUMMARY makes one provider call). */
export interface AgentNodeInput {
  input: AgentInput;
  usage: AgentUsage | undefined;
}

/**
 * Builds an agent node's input from the state per its ContextMode. A scatter payload that is a
 * string is the input itself. Messages other nodes wrote reach the agent as one user message
 * holding the transcript (`name: text` lines), so every provider accepts the turn order.
 */
export async function agentNodeInput(state: ReadonlyGraphState, options: NodeOptions, payload: unknown, signal: AbortSignal): Promise<AgentNodeInput> {
  if (typeof payload === 'string') return { input: payload, usage: undefined };
  const mode = options.contextMode ?? ContextMode.LAST_MESSAGE;
  switch (mode) {
    case ContextMode.LAST_MESSAGE: {
      const last = state.messages[state.messages.length - 1];
      return { input: last ? last.content : outputText(state.data[LAST_OUTPUT_KEY]), usage: undefined };
    }
    case ContextMode.LAST_N:
      return { input: transcript(state.messages.slice(-(options.contextN ?? GRAPH_DEFAULTS.contextN))), usage: undefined };
    case ContextMode.FULL:
      return { input: transcript(state.messages), usage: undefined };
    case ContextMode.CUSTOM: {
      const fn = options.contextFn;
      if (!fn) throw new TypeError('ContextMode CUSTOM needs contextFn');
      return { input: fn(state), usage: undefined };
    }
    case ContextMode.SUMMARY:
      return summaryInput(state, options, signal);
  }
}

/** Messages as one user message: `user: …`, `<node>: …` lines (tool messages left out). */
function transcript(messages: readonly Message[]): Message[] {
  const lines = messages.filter((m) => m.role !== Role.TOOL && m.content !== '').map((m) => `${m.name ?? m.role}: ${m.content}`);
  return [userMessage(lines.join('\n\n'))];
}

async function summaryInput(state: ReadonlyGraphState, options: NodeOptions, signal: AbortSignal): Promise<AgentNodeInput> {
  const provider = options.summaryProvider;
  if (!provider) throw new TypeError('ContextMode SUMMARY needs summaryProvider');
  const last = state.messages[state.messages.length - 1];
  const text = (transcript(state.messages)[0] as Message).content;
  const capped = text.length > GRAPH_DEFAULTS.summaryInputChars ? text.slice(-GRAPH_DEFAULTS.summaryInputChars) : text;
  const model = options.summaryModel ?? provider.defaultModel;
  const reply = await provider.complete({
    model,
    system: SUMMARY_SYSTEM,
    messages: [userMessage(capped)],
    maxTokens: options.summaryMaxTokens ?? GRAPH_DEFAULTS.summaryMaxTokens,
    signal,
  });
  const usage = new AgentUsage();
  if (reply.usage) {
    const u = reply.usage;
    const totalTokens = u.totalTokens ?? u.promptTokens + u.completionTokens;
    usage.addLlmCall({ promptTokens: u.promptTokens, completionTokens: u.completionTokens, totalTokens, costUsd: u.costUsd ?? priceUsage(reply.model ?? model, u), embeddingTokens: 0, embeddingCostUsd: 0 });
  } else {
    usage.llmCalls += 1;
  }
  const input = `Summary of the conversation so far:\n${reply.message.content}${last ? `\n\nLatest message (${last.name ?? last.role}):\n${last.content}` : ''}`;
  return { input, usage };
}
