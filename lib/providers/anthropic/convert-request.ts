import type {
  Base64ImageSource,
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsBase,
  MessageParam,
  RedactedThinkingBlockParam,
  ThinkingBlockParam,
  ThinkingConfigParam,
  Tool,
  ToolChoice as AnthropicToolChoice,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { Message } from '../../core/message.js';
import { reasoningPartsFor } from '../../core/reasoning-part.js';
import { Role } from '../../core/role.js';
import type { ProviderRequest, ProviderToolSpec, ToolChoice } from '../spec.js';
import { ANTHROPIC } from './errors.js';

/** `max_tokens` sent when neither the request nor the provider options set one. */
export const DEFAULT_MAX_TOKENS = 4096;

/** The smallest thinking budget the API accepts. */
export const MIN_THINKING_BUDGET = 1024;

/**
 * Extended thinking: `{ budgetTokens }` is manual mode with a fixed budget (≥ 1024 tokens; sent as
 * `{ type: 'enabled', budget_tokens }`); `'adaptive'` lets the model decide how much to think
 * (`{ type: 'adaptive' }`, the mode newer models require).
 */
export type AnthropicThinking = { budgetTokens: number } | 'adaptive';

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

/**
 * The message's Anthropic reasoning parts as the leading thinking / redacted_thinking blocks, in
 * the order received and byte for byte. Parts of other providers are never sent, nor a thinking
 * block without a signature (the API rejects unsigned blocks).
 */
function reasoningBlocks(message: Message): (ThinkingBlockParam | RedactedThinkingBlockParam)[] {
  const blocks: (ThinkingBlockParam | RedactedThinkingBlockParam)[] = [];
  for (const part of reasoningPartsFor(message.reasoningParts, ANTHROPIC)) {
    if (part.type === 'thinking' && part.signature !== undefined) blocks.push({ type: 'thinking', thinking: part.text, signature: part.signature });
    else if (part.type === 'redacted') blocks.push({ type: 'redacted_thinking', data: part.data });
  }
  return blocks;
}

function assistantBlocks(message: Message): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  if (message.content.trim() !== '') blocks.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls ?? []) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.toolName, input: call.parameters });
  }
  // Thinking blocks lead the turn they belong to (a message with nothing else to send sends none).
  if (blocks.length > 0 && message.reasoningParts) blocks.unshift(...reasoningBlocks(message));
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

/** The `thinking` config of the API for an AnthropicThinking option. */
export function toAnthropicThinking(thinking: AnthropicThinking): ThinkingConfigParam {
  return thinking === 'adaptive' ? { type: 'adaptive' } : { type: 'enabled', budget_tokens: thinking.budgetTokens };
}

/**
 * Builds the Messages API body (without `stream`). With `thinking`, the `thinking` config is sent
 * and `temperature` is not (the API accepts no other temperature than its default with thinking);
 * with a budget, `max_tokens` must exceed it: a `max_tokens` at or below the budget is raised to
 * budget + max_tokens (the answer keeps the room asked for, on top of the thinking budget).
 */
export function toAnthropicParams(request: ProviderRequest, defaultMaxTokens: number, thinking?: AnthropicThinking): AnthropicParams {
  const converted = toAnthropicMessages(request.messages);
  const system = [request.system ?? '', ...converted.system].filter((s) => s !== '').join('\n\n');
  let maxTokens = request.maxTokens ?? defaultMaxTokens;
  if (thinking !== undefined && thinking !== 'adaptive' && maxTokens <= thinking.budgetTokens) maxTokens += thinking.budgetTokens;
  const params: AnthropicParams = {
    model: request.model,
    max_tokens: maxTokens,
    messages: converted.messages,
  };
  if (system) params.system = system;
  if (thinking !== undefined) params.thinking = toAnthropicThinking(thinking);
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
