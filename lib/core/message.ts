import type { ReasoningPart } from './reasoning-part.js';
import { Role } from './role.js';
import type { ToolCall } from './tool-call.js';

export type { ReasoningPart } from './reasoning-part.js';

/** An image attached to a message, sent base64-encoded to vision-capable providers. */
export interface ImagePart {
  /** Base64 data (no `data:` prefix). */
  data: string;
  /** IANA media type, e.g. `image/png`. */
  mediaType: string;
}

/** One message of a conversation. */
export interface Message {
  role: Role;
  /** Text content; a provider reply with `null` content is normalised to `''`. */
  content: string;
  /** Tool calls carried on an assistant reply. */
  toolCalls?: ToolCall[];
  /**
   * On an assistant reply: opaque reasoning blocks / signatures the provider returned with it, in
   * the order received, which its adapter sends back unchanged on the next turn (Anthropic thinking
   * and redacted_thinking blocks, Gemini text-part thought signatures). Never part of `content`;
   * other providers' adapters ignore them. See ReasoningPart.
   */
  reasoningParts?: ReasoningPart[];
  /** On a TOOL message: the id of the call this result answers. */
  toolCallId?: string;
  /** On a TOOL message: the tool that produced it. */
  toolName?: string;
  /** On a TOOL message: whether the result is an error. */
  isError?: boolean;
  /** Images for vision-capable providers. */
  images?: ImagePart[];
  /** Optional author name. */
  name?: string;
}

/** Normalises provider content (`null`/`undefined` → `''`). */
export function normalizeContent(content: string | null | undefined): string {
  return content ?? '';
}

/** A user message. */
export function userMessage(content: string, images?: ImagePart[]): Message {
  return images && images.length > 0 ? { role: Role.USER, content, images } : { role: Role.USER, content };
}

/** A system message. */
export function systemMessage(content: string): Message {
  return { role: Role.SYSTEM, content };
}

/** An assistant message, optionally with tool calls and the provider's reasoning parts (empty lists are left out). */
export function assistantMessage(content: string | null | undefined, toolCalls?: ToolCall[], reasoningParts?: ReasoningPart[]): Message {
  const message: Message = { role: Role.ASSISTANT, content: normalizeContent(content) };
  if (toolCalls && toolCalls.length > 0) message.toolCalls = toolCalls;
  if (reasoningParts && reasoningParts.length > 0) message.reasoningParts = reasoningParts;
  return message;
}

/** A tool-result message answering `call`. */
export function toolMessage(call: Pick<ToolCall, 'id' | 'toolName'>, content: string, isError = false): Message {
  const message: Message = { role: Role.TOOL, content, toolCallId: call.id, toolName: call.toolName };
  if (isError) message.isError = true;
  return message;
}
