import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsBase,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import type { Message } from '../../core/message.js';
import { Role } from '../../core/role.js';
import type { ProviderRequest, ProviderToolSpec, ToolChoice } from '../spec.js';
import { isReasoningModel } from './model-family.js';

/** Chat Completions parameters, without the `stream` flag. */
export type ChatParams = Omit<ChatCompletionCreateParamsBase, 'stream' | 'stream_options'>;

function userContent(message: Message): string | ChatCompletionContentPart[] {
  if (!message.images || message.images.length === 0) return message.content;
  const parts: ChatCompletionContentPart[] = [];
  if (message.content) parts.push({ type: 'text', text: message.content });
  for (const image of message.images) {
    parts.push({ type: 'image_url', image_url: { url: `data:${image.mediaType};base64,${image.data}` } });
  }
  return parts;
}

function toolCallParam(call: NonNullable<Message['toolCalls']>[number]): ChatCompletionMessageFunctionToolCall {
  return { id: call.id, type: 'function', function: { name: call.toolName, arguments: JSON.stringify(call.parameters) } };
}

/** One agentlib message as a Chat Completions message. */
export function toMessageParam(message: Message): ChatCompletionMessageParam {
  switch (message.role) {
    case Role.SYSTEM:
      return { role: 'system', content: message.content };
    case Role.TOOL:
      return { role: 'tool', tool_call_id: message.toolCallId ?? '', content: message.content };
    case Role.ASSISTANT: {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return { role: 'assistant', content: message.content || null, tool_calls: calls.map(toolCallParam) };
    }
    default: {
      const param: ChatCompletionMessageParam = { role: 'user', content: userContent(message) };
      if (message.name) param.name = message.name;
      return param;
    }
  }
}

/** A tool spec as a Chat Completions function tool. */
export function toToolParam(spec: ProviderToolSpec): ChatCompletionFunctionTool {
  return { type: 'function', function: { name: spec.name, description: spec.description, parameters: spec.parameters } };
}

/** agentlib's tool choice in Chat Completions form. */
export function toToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.toolName } };
}

/**
 * The Chat Completions body for a request: system prompt first, tools as functions, the token
 * limit under the name the model family accepts, and no temperature for reasoning models.
 */
export function toChatParams(request: ProviderRequest, model: string): ChatParams {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.system) messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) messages.push(toMessageParam(message));
  const params: ChatParams = { model, messages };
  if (request.tools && request.tools.length > 0) {
    params.tools = request.tools.map(toToolParam);
    if (request.toolChoice) params.tool_choice = toToolChoice(request.toolChoice);
  }
  const reasoning = isReasoningModel(model);
  if (request.temperature !== undefined && !reasoning) params.temperature = request.temperature;
  if (request.maxTokens !== undefined) {
    if (reasoning) params.max_completion_tokens = request.maxTokens;
    else params.max_tokens = request.maxTokens;
  }
  if (request.responseFormat) {
    const { name, schema, description } = request.responseFormat;
    const jsonSchema: { name: string; schema: Record<string, unknown>; description?: string } = { name, schema };
    if (description) jsonSchema.description = description;
    params.response_format = { type: 'json_schema', json_schema: jsonSchema };
  }
  return params;
}
