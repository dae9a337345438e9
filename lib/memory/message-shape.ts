import type { Message } from '../core/message.js';

const ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'tool', 'system']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Why `value` is not a stored Message (a description naming the path), or undefined when it is
 * one. Checks the fields the loop and the providers rely on; unknown extra fields are allowed.
 */
export function messageProblem(value: unknown, path: string): string | undefined {
  if (!isRecord(value)) return `${path} is not an object`;
  if (typeof value.role !== 'string' || !ROLES.has(value.role)) return `${path}.role must be user, assistant, tool or system`;
  if (typeof value.content !== 'string') return `${path}.content must be a string`;
  const calls = value.toolCalls;
  if (calls !== undefined) {
    if (!Array.isArray(calls)) return `${path}.toolCalls must be a list`;
    for (let i = 0; i < calls.length; i++) {
      const call: unknown = calls[i];
      if (!isRecord(call) || typeof call.id !== 'string' || typeof call.toolName !== 'string' || !isRecord(call.parameters)) {
        return `${path}.toolCalls[${i}] must have a string id, a string toolName and object parameters`;
      }
    }
  }
  if (value.reasoningParts !== undefined && (!Array.isArray(value.reasoningParts) || !value.reasoningParts.every(isRecord))) return `${path}.reasoningParts must be a list of objects`;
  if (value.toolCallId !== undefined && typeof value.toolCallId !== 'string') return `${path}.toolCallId must be a string`;
  return undefined;
}

/** Why `value` is not a list of stored Messages, or undefined. */
export function messagesProblem(value: unknown, path: string): string | undefined {
  if (!Array.isArray(value)) return `${path} must be a list of messages`;
  for (let i = 0; i < value.length; i++) {
    // The path is built only for a message found wrong (this runs on every session load).
    if (messageProblem(value[i], '') !== undefined) return messageProblem(value[i], `${path}[${i}]`);
  }
  return undefined;
}

/** Narrows after a successful `messagesProblem` check. */
export function asMessages(value: unknown): Message[] {
  return value as Message[];
}
