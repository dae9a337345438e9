import type { MessageParam, ThinkingConfigParam } from '@anthropic-ai/sdk/resources/messages/messages';
import { ProviderConfigurationError } from '../../core/errors/provider-configuration-error.js';
import { getModelInfo } from '../models/registry.js';
import type { ProviderRequest } from '../spec.js';
import { ANTHROPIC } from './errors.js';

/** The smallest thinking budget the API accepts. */
export const MIN_THINKING_BUDGET = 1024;

/**
 * Extended thinking: `{ budgetTokens }` is manual mode with a fixed budget (≥ 1024 tokens; sent as
 * `{ type: 'enabled', budget_tokens }`); `'adaptive'` lets the model decide how much to think
 * (`{ type: 'adaptive' }`, the mode newer models require).
 */
export type AnthropicThinking = { budgetTokens: number } | 'adaptive';

/** The `thinking` config of the API for an AnthropicThinking option. */
export function toAnthropicThinking(thinking: AnthropicThinking): ThinkingConfigParam {
  return thinking === 'adaptive' ? { type: 'adaptive' } : { type: 'enabled', budget_tokens: thinking.budgetTokens };
}

/**
 * The most output tokens `model` may produce, from the model registry (`maxOutputTokens`);
 * undefined for a model the registry does not know (or knows without a limit).
 */
export function maxOutputTokensOf(model: string): number | undefined {
  const limit = getModelInfo(model)?.maxOutputTokens;
  return limit !== undefined && limit > 0 ? limit : undefined;
}

/**
 * Refuses, before anything is sent, a request the API would reject because of budget thinking
 * (a ProviderConfigurationError naming the provider):
 * - forced tool choice (`required` or a named tool, with tools): the API allows only `auto` and
 *   `none` with `{ type: 'enabled' }` thinking (adaptive thinking allows it, and is not checked);
 * - a budget that does not fit below the model's maximum output tokens (the API requires
 *   `max_tokens` > `budget_tokens` and `max_tokens` ≤ the model's limit). Unknown models are not checked.
 */
export function checkBudgetThinking(request: ProviderRequest, budgetTokens: number): void {
  const choice = request.toolChoice;
  if (request.tools && request.tools.length > 0 && choice !== undefined && choice !== 'auto' && choice !== 'none') {
    const forced = choice === 'required' ? "toolChoice 'required'" : `toolChoice { toolName: ${JSON.stringify(choice.toolName)} }`;
    throw new ProviderConfigurationError(
      `anthropic: ${forced} cannot be combined with thinking { budgetTokens } (the API accepts only 'auto' or 'none' with budget thinking); ` +
        "use toolChoice 'auto', thinking 'adaptive', or no thinking",
      { provider: ANTHROPIC },
    );
  }
  const limit = maxOutputTokensOf(request.model);
  if (limit !== undefined && budgetTokens >= limit) {
    throw new ProviderConfigurationError(
      `anthropic: thinking budgetTokens ${budgetTokens} does not fit in the ${limit} output tokens of ${request.model} ` +
        `(max_tokens must exceed the budget); use a budget below ${limit}`,
      { provider: ANTHROPIC },
    );
  }
}

/**
 * `max_tokens` for a request with budget thinking: a `maxTokens` at or below the budget is raised
 * to budget + maxTokens (the answer keeps the room asked for, on top of the thinking budget),
 * capped at the model's maximum output tokens when the registry knows them; a `maxTokens` already
 * above the budget is sent as it is.
 */
export function budgetMaxTokens(model: string, maxTokens: number, budgetTokens: number): number {
  if (maxTokens > budgetTokens) return maxTokens;
  const raised = maxTokens + budgetTokens;
  const limit = maxOutputTokensOf(model);
  return limit === undefined ? raised : Math.min(raised, limit);
}

const isToolResult = (block: { type: string }): boolean => block.type === 'tool_result';
const hasToolResult = (turn: MessageParam): boolean => Array.isArray(turn.content) && turn.content.some(isToolResult);
const hasOtherContent = (turn: MessageParam): boolean => typeof turn.content === 'string' || turn.content.some((block) => !isToolResult(block));

function leadsWithThinking(turn: MessageParam): boolean {
  const first = Array.isArray(turn.content) ? turn.content[0] : undefined;
  return first?.type === 'thinking' || first?.type === 'redacted_thinking';
}

/**
 * Whether the open tool loop of `messages` started without thinking: the conversation ends with
 * tool results, and the assistant turn that started that tool_use / tool_result loop does not
 * begin with a (signed) thinking or redacted_thinking block — a history recorded without thinking,
 * or one another provider answered before a fallback. With thinking on, the API rejects such a
 * request (400: "a final assistant message must start with a thinking block"). The loop is
 * followed back through user turns holding tool results; when such a turn also holds other
 * content, the assistant turn after it is checked too (either may count as the start).
 */
export function openToolLoopLacksThinking(messages: readonly MessageParam[]): boolean {
  const last = messages.at(-1);
  if (last?.role !== 'user' || !hasToolResult(last)) return false;
  for (let i = messages.length - 1; i >= 0; i--) {
    const turn = messages[i]!;
    if (turn.role === 'user') {
      if (!hasToolResult(turn)) return false;
      continue;
    }
    const previous = messages[i - 1];
    const mayStart = previous === undefined || previous.role !== 'user' || !hasToolResult(previous) || hasOtherContent(previous);
    if (mayStart && !leadsWithThinking(turn)) return true;
  }
  return false;
}
