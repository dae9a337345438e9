import type { Message } from '../core/message.js';
import { Role } from '../core/role.js';
import { stripThink } from '../agent/think-filter.js';

/**
 * The message as memory stores it: a deep copy nobody else holds, with `<think>` blocks removed
 * from an assistant's text (reasoning never enters the history; the provider's own reasoning
 * parts and thought signatures are kept unchanged).
 */
export function cleanMessage(message: Message): Message {
  const copy = structuredClone(message);
  if (copy.role === Role.ASSISTANT && copy.content.includes('<think>')) copy.content = stripThink(copy.content).text;
  return copy;
}
