import type { ChatRequest, Message as OllamaMessage, Options, Tool } from 'ollama';
import type { Message } from '../../core/message.js';
import { Role } from '../../core/role.js';
import type { ProviderRequest, ProviderToolSpec } from '../spec.js';

/** Settings of the provider that shape every chat request. */
export interface ChatRequestSettings {
  model: string;
  keepAlive?: string | number;
}

function toOllamaMessage(message: Message): OllamaMessage {
  switch (message.role) {
    case Role.TOOL: {
      const out: OllamaMessage = { role: 'tool', content: message.content };
      if (message.toolName !== undefined) out.tool_name = message.toolName;
      return out;
    }
    case Role.ASSISTANT: {
      const out: OllamaMessage = { role: 'assistant', content: message.content };
      if (message.toolCalls && message.toolCalls.length > 0) {
        out.tool_calls = message.toolCalls.map((call) => ({ function: { name: call.toolName, arguments: call.parameters } }));
      }
      return out;
    }
    default: {
      const out: OllamaMessage = { role: message.role, content: message.content };
      if (message.images && message.images.length > 0) out.images = message.images.map((image) => image.data);
      return out;
    }
  }
}

function toOllamaTool(spec: ProviderToolSpec): Tool {
  return { type: 'function', function: { name: spec.name, description: spec.description, parameters: spec.parameters } };
}

/** The tools to send: none for `toolChoice: 'none'`; only the named one for a forced tool (Ollama cannot force a call). */
function selectTools(request: ProviderRequest): readonly ProviderToolSpec[] {
  const tools = request.tools ?? [];
  const choice = request.toolChoice;
  if (choice === 'none') return [];
  if (typeof choice === 'object') return tools.filter((spec) => spec.name === choice.toolName);
  return tools;
}

/** Builds the `/api/chat` body (without `stream`) of a provider request. */
export function toChatRequest(request: ProviderRequest, settings: ChatRequestSettings): ChatRequest {
  const messages: OllamaMessage[] = [];
  if (request.system !== undefined && request.system !== '') messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) messages.push(toOllamaMessage(message));
  const body: ChatRequest = { model: settings.model, messages };
  const tools = selectTools(request);
  if (tools.length > 0) body.tools = tools.map(toOllamaTool);
  if (request.responseFormat) body.format = request.responseFormat.schema;
  const options: Partial<Options> = {};
  if (request.temperature !== undefined) options.temperature = request.temperature;
  if (request.maxTokens !== undefined) options.num_predict = request.maxTokens;
  if (Object.keys(options).length > 0) body.options = options;
  if (settings.keepAlive !== undefined) body.keep_alive = settings.keepAlive;
  return body;
}
