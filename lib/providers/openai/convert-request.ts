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

type SchemaNode = Record<string, unknown>;
const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Keywords OpenAI's strict mode does not support. */
const NOT_STRICT = ['allOf', 'oneOf', 'not', 'if', 'then', 'else', 'patternProperties', 'dependentSchemas', 'dependentRequired', 'unevaluatedProperties'];

/** A strict-mode copy of a schema node, or undefined when the node cannot be strict (see toStrictSchema). */
function strictNode(node: unknown, depth: number): SchemaNode | undefined {
  if (depth > 64 || !isNode(node)) return undefined;
  if (NOT_STRICT.some((key) => key in node)) return undefined;
  const out: SchemaNode = { ...node };
  const type = node.type;
  const isObject = type === 'object' || (Array.isArray(type) && type.includes('object')) || 'properties' in node;
  if (isObject) {
    // Closing an object is safe only when it lists properties (a free-form object would become `{}`).
    if (node.additionalProperties !== false && node.additionalProperties !== undefined) return undefined;
    if (!isNode(node.properties) || (Object.keys(node.properties).length === 0 && node.additionalProperties !== false)) return undefined;
    const names = Object.keys(node.properties);
    const required = Array.isArray(node.required) ? node.required : [];
    if (required.length !== names.length || names.some((name) => !required.includes(name))) return undefined;
    const properties: SchemaNode = {};
    for (const name of names) {
      const child = strictNode(node.properties[name], depth + 1);
      if (!child) return undefined;
      properties[name] = child;
    }
    out.properties = properties;
    out.additionalProperties = false;
  }
  const list = (value: unknown): unknown[] | undefined => {
    if (!Array.isArray(value)) return undefined;
    const children = value.map((child) => strictNode(child, depth + 1));
    return children.every((child) => child !== undefined) ? children : undefined;
  };
  if ('items' in node) {
    const items = Array.isArray(node.items) ? list(node.items) : strictNode(node.items, depth + 1);
    if (!items) return undefined;
    out.items = items;
  }
  for (const key of ['prefixItems', 'anyOf']) {
    if (!(key in node)) continue;
    const children = list(node[key]);
    if (!children) return undefined;
    out[key] = children;
  }
  for (const key of ['$defs', 'definitions']) {
    const defs = node[key];
    if (defs === undefined) continue;
    if (!isNode(defs)) return undefined;
    const copy: SchemaNode = {};
    for (const [name, child] of Object.entries(defs)) {
      const strict = strictNode(child, depth + 1);
      if (!strict) return undefined;
      copy[name] = strict;
    }
    out[key] = copy;
  }
  return out;
}

/**
 * The schema as OpenAI's strict mode (`strict: true`) accepts it, or undefined when it cannot be
 * strict: an object at the root, and every object in it (properties, items, anyOf branches,
 * `$defs`) lists properties that are all required, with `additionalProperties` false or absent
 * (absent is closed in the copy: any reply it allows is valid under the original too), and no
 * keyword strict mode rejects (allOf, oneOf, not, …). The agent's structured-output schemas (zod
 * objects without optional fields) qualify.
 */
export function toStrictSchema(schema: unknown): Record<string, unknown> | undefined {
  return isNode(schema) && schema.type === 'object' ? strictNode(schema, 0) : undefined;
}

/** Whether a schema can be sent with `strict: true` (see toStrictSchema). */
export function isStrictCompatibleSchema(schema: unknown): boolean {
  return toStrictSchema(schema) !== undefined;
}

/**
 * The Chat Completions body for a request: system prompt first, tools as functions, the token
 * limit under the name the model family accepts, no temperature for reasoning models, and
 * `strict: true` on a structured-output schema that strict mode accepts. `options.reasoning`
 * overrides the family guessed from the model id (Azure deployment names are arbitrary).
 */
export function toChatParams(request: ProviderRequest, model: string, options: { reasoning?: boolean } = {}): ChatParams {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.system) messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) messages.push(toMessageParam(message));
  const params: ChatParams = { model, messages };
  if (request.tools && request.tools.length > 0) {
    params.tools = request.tools.map(toToolParam);
    if (request.toolChoice) params.tool_choice = toToolChoice(request.toolChoice);
  }
  const reasoning = options.reasoning ?? isReasoningModel(model);
  if (request.temperature !== undefined && !reasoning) params.temperature = request.temperature;
  if (request.maxTokens !== undefined) {
    if (reasoning) params.max_completion_tokens = request.maxTokens;
    else params.max_tokens = request.maxTokens;
  }
  if (request.responseFormat) {
    const { name, schema, description } = request.responseFormat;
    // Strict mode guarantees the schema, but only accepts closed objects whose properties are all required.
    const strict = toStrictSchema(schema);
    const jsonSchema: { name: string; schema: Record<string, unknown>; description?: string; strict?: boolean } = { name, schema: strict ?? schema };
    if (description) jsonSchema.description = description;
    if (strict) jsonSchema.strict = true;
    params.response_format = { type: 'json_schema', json_schema: jsonSchema };
  }
  return params;
}
