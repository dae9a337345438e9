import type {
  Base64ImageSource,
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsBase,
  MessageParam,
  Tool,
  ToolChoice as AnthropicToolChoice,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { Message } from '../../core/message.js';
import { Role } from '../../core/role.js';
import type { ProviderRequest, ProviderToolSpec, ToolChoice } from '../spec.js';
import { assistantBlocks } from './assistant-blocks.js';
import { budgetMaxTokens, checkBudgetThinking, openToolLoopLacksThinking, toAnthropicThinking, type AnthropicThinking } from './thinking.js';

export { MIN_THINKING_BUDGET, toAnthropicThinking, type AnthropicThinking } from './thinking.js';

/** `max_tokens` sent when neither the request nor the provider options set one. */
export const DEFAULT_MAX_TOKENS = 4096;

type ImageMediaType = Base64ImageSource['media_type'];

/** The body we send: the SDK's params plus `temperature` (accepted by the API, absent from this SDK's types). */
export type AnthropicParams = MessageCreateParamsBase & { temperature?: number };

interface Turn {
  role: 'user' | 'assistant';
  content: ContentBlockParam[];
}

function imageBlock(image: { data: string; mediaType: string }): ImageBlockParam {
  return { type: 'image', source: { type: 'base64', media_type: image.mediaType as ImageMediaType, data: image.data } };
}

function userBlocks(message: Message): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = (message.images ?? []).map(imageBlock);
  if (message.content !== '' || blocks.length === 0) blocks.push({ type: 'text', text: message.content });
  return blocks;
}

function toolResultBlock(message: Message): ToolResultBlockParam {
  const block: ToolResultBlockParam = { type: 'tool_result', tool_use_id: message.toolCallId ?? '', content: message.content };
  if (message.isError) block.is_error = true;
  return block;
}

const isToolResult = (block: ContentBlockParam): boolean => block.type === 'tool_result';

/** Index of the assistant turn holding the tool_use `id` (the latest one), or -1. */
function callerOf(turns: readonly Turn[], id: string | undefined): number {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i]!;
    if (turn.role === 'assistant' && turn.content.some((b) => b.type === 'tool_use' && b.id === id)) return i;
  }
  return -1;
}

/** Puts a tool_result into the user turn right after the assistant turn that called it. */
function placeToolResult(turns: Turn[], message: Message): void {
  const block = toolResultBlock(message);
  let caller = callerOf(turns, message.toolCallId);
  if (caller < 0) caller = turns.length - 1;
  const next = turns[caller + 1];
  if (caller >= 0 && next?.role === 'user') {
    const at = next.content.findIndex((b) => !isToolResult(b));
    next.content.splice(at < 0 ? next.content.length : at, 0, block);
  } else if (caller >= 0) {
    turns.splice(caller + 1, 0, { role: 'user', content: [block] });
  } else {
    turns.push({ role: 'user', content: [block] });
  }
}

function pushTurn(turns: Turn[], role: Turn['role'], blocks: ContentBlockParam[]): void {
  if (blocks.length === 0) return;
  const last = turns[turns.length - 1];
  if (last?.role === role) last.content.push(...blocks);
  else turns.push({ role, content: blocks });
}

/**
 * Converts agentlib messages to Anthropic turns: system messages are lifted out, user/assistant
 * turns alternate (consecutive same-role messages are merged), assistant tool calls become
 * `tool_use` blocks and TOOL messages `tool_result` blocks in the user turn adjacent to their call.
 */
export function toAnthropicMessages(messages: readonly Message[]): { system: string[]; messages: MessageParam[] } {
  const system: string[] = [];
  const turns: Turn[] = [];
  for (const message of messages) {
    switch (message.role) {
      case Role.SYSTEM:
        if (message.content) system.push(message.content);
        break;
      case Role.TOOL:
        placeToolResult(turns, message);
        break;
      case Role.ASSISTANT:
        pushTurn(turns, 'assistant', assistantBlocks(message));
        break;
      default:
        pushTurn(turns, 'user', userBlocks(message));
    }
  }
  return { system, messages: turns.map((t) => ({ role: t.role, content: t.content })) };
}

/** Tool specs as Anthropic tools (`input_schema`). */
export function toAnthropicTools(tools: readonly ProviderToolSpec[]): Tool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters as Tool.InputSchema }));
}

/** agentlib tool choice → Anthropic `tool_choice`. */
export function toAnthropicToolChoice(choice: ToolChoice): AnthropicToolChoice {
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any' };
  return { type: 'tool', name: choice.toolName };
}

/**
 * Builds the Messages API body (without `stream`). With `thinking`, the `thinking` config is sent
 * and `temperature` is not (the API accepts no other temperature than its default with thinking);
 * with a budget, `max_tokens` must exceed it: a `max_tokens` at or below the budget is raised to
 * budget + max_tokens, capped at the model's maximum output tokens (see budgetMaxTokens).
 *
 * Budget thinking with a forced tool choice, or with a budget that does not fit below the model's
 * maximum output, throws a ProviderConfigurationError (see checkBudgetThinking). When the open
 * tool loop started without thinking (see openToolLoopLacksThinking), this request is built as
 * if thinking were off (no `thinking`, no raised `max_tokens`, `temperature` sent), since the API
 * would reject it with thinking; the next user turn gets thinking again.
 */
export function toAnthropicParams(request: ProviderRequest, defaultMaxTokens: number, thinking?: AnthropicThinking): AnthropicParams {
  if (thinking !== undefined && thinking !== 'adaptive') checkBudgetThinking(request, thinking.budgetTokens);
  const converted = toAnthropicMessages(request.messages);
  const system = [request.system ?? '', ...converted.system].filter((s) => s !== '').join('\n\n');
  const think = thinking !== undefined && !openToolLoopLacksThinking(converted.messages) ? thinking : undefined;
  let maxTokens = request.maxTokens ?? defaultMaxTokens;
  if (think !== undefined && think !== 'adaptive') maxTokens = budgetMaxTokens(request.model, maxTokens, think.budgetTokens);
  const params: AnthropicParams = {
    model: request.model,
    max_tokens: maxTokens,
    messages: converted.messages,
  };
  if (system) params.system = system;
  if (think !== undefined) params.thinking = toAnthropicThinking(think);
  else if (request.temperature !== undefined) params.temperature = request.temperature;
  if (request.tools && request.tools.length > 0) {
    params.tools = toAnthropicTools(request.tools);
    if (request.toolChoice) params.tool_choice = toAnthropicToolChoice(request.toolChoice);
  }
  if (request.responseFormat) {
    params.output_config = { format: { type: 'json_schema', schema: request.responseFormat.schema } };
  }
  return params;
}
