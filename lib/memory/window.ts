import type { Message } from '../core/message.js';
import { Role } from '../core/role.js';

/** The limits of a conversation window. */
export interface WindowLimits {
  /** Most messages kept (the summary message is not counted). */
  maxMessages: number | undefined;
  /** Most tokens kept, by `countTokens`. */
  maxTokens: number | undefined;
  /** Tokens of one message. */
  countTokens: (message: Message) => number;
}

/**
 * True when the window may start at `messages[start]`: a USER or SYSTEM message, and no TOOL
 * message from `start` on answers a call made before `start` (no orphaned tool result).
 */
export function isWindowStart(messages: readonly Message[], start: number): boolean {
  const first = messages[start];
  if (first === undefined) return start === messages.length;
  if (first.role !== Role.USER && first.role !== Role.SYSTEM) return false;
  const calls = new Set<string>();
  for (let i = start; i < messages.length; i++) {
    const message = messages[i]!;
    for (const call of message.toolCalls ?? []) calls.add(call.id);
    if (message.role === Role.TOOL && message.toolCallId !== undefined && !calls.has(message.toolCallId)) return false;
  }
  return true;
}

/**
 * Where the window of `messages` starts: the earliest index that keeps within the limits and at
 * which the window may start (see `isWindowStart`). Tool calls and their results (all of a
 * parallel batch) are therefore kept or dropped together, and the window opens on a USER or
 * SYSTEM message. When even the latest such start is over a limit (one turn with many tool
 * calls), the window starts there anyway: a turn is never cut in half. When no message may start
 * a window, nothing is dropped.
 */
export function windowStart(messages: readonly Message[], limits: WindowLimits): number {
  const { maxMessages, maxTokens, countTokens } = limits;
  const suffixTokens = new Array<number>(messages.length + 1).fill(0);
  if (maxTokens !== undefined) {
    for (let i = messages.length - 1; i >= 0; i--) suffixTokens[i] = suffixTokens[i + 1]! + countTokens(messages[i]!);
  }
  const fits = (start: number): boolean =>
    (maxMessages === undefined || messages.length - start <= maxMessages) && (maxTokens === undefined || suffixTokens[start]! <= maxTokens);
  if (fits(0)) return 0;
  let latest = -1;
  for (let start = 1; start < messages.length; start++) {
    if (!isWindowStart(messages, start)) continue;
    if (fits(start)) return start;
    latest = start;
  }
  // Nothing fits: keep the last whole turn (the latest valid start), or everything when none.
  return latest === -1 ? 0 : latest;
}
