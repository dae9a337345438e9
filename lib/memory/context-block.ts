import type { Message } from '../core/message.js';
import { Role } from '../core/role.js';

/**
 * `messages` with a context block (entities, relationships, long-term memory) put before them as
 * a system message. The block is per run: it is never stored in the conversation.
 */
export function withContextBlock(messages: readonly Message[], block: string | undefined): Message[] | undefined {
  if (block === undefined || block === '') return undefined;
  return [{ role: Role.SYSTEM, content: block }, ...messages];
}

/** True when a run added something worth reading: a message with text or tool calls. */
export function hasContent(messages: readonly Message[]): boolean {
  return messages.some((m) => m.content.trim() !== '' || (m.toolCalls?.length ?? 0) > 0);
}
