import type { ContentBlockParam, RedactedThinkingBlockParam, ThinkingBlockParam } from '@anthropic-ai/sdk/resources/messages/messages';
import type { Message } from '../../core/message.js';
import { reasoningPartsFor, type ReasoningPart } from '../../core/reasoning-part.js';
import { ANTHROPIC } from './errors.js';

/** A reasoning part as the block sent back, byte for byte; undefined for a thinking block without a signature (the API rejects those). */
function reasoningBlock(part: ReasoningPart): ThinkingBlockParam | RedactedThinkingBlockParam | undefined {
  if (part.type === 'thinking' && part.signature !== undefined) return { type: 'thinking', thinking: part.text, signature: part.signature };
  if (part.type === 'redacted') return { type: 'redacted_thinking', data: part.data };
  return undefined;
}

/**
 * An assistant message as content blocks: its text (one block), its tool calls as tool_use blocks,
 * and its Anthropic reasoning parts as thinking / redacted_thinking blocks, in the order the reply
 * had them. Parts without an `index` lead the turn (before any text or tool_use); a part with an
 * `index` (interleaved thinking) goes after the answer blocks that preceded it in the reply: the
 * text first, then tool_use blocks in order. The reply's text is kept as one string, so text that
 * was split around a thinking block comes back as one block before it. Parts of other providers
 * are never sent, nor unsigned thinking; a message with nothing else to send sends no thinking.
 */
export function assistantBlocks(message: Message): ContentBlockParam[] {
  const answer: ContentBlockParam[] = [];
  if (message.content.trim() !== '') answer.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls ?? []) answer.push({ type: 'tool_use', id: call.id, name: call.toolName, input: call.parameters });
  if (answer.length === 0 || !message.reasoningParts) return answer;
  const blocks: ContentBlockParam[] = [];
  let sent = 0;
  reasoningPartsFor(message.reasoningParts, ANTHROPIC).forEach((part, seen) => {
    if (part.type !== 'signature' && part.index !== undefined) {
      // The reply's blocks before this one that were not reasoning: text and tool_use blocks.
      const before = part.index - seen;
      while (sent < before && sent < answer.length) blocks.push(answer[sent++]!);
    }
    const block = reasoningBlock(part);
    if (block) blocks.push(block);
  });
  blocks.push(...answer.slice(sent));
  return blocks;
}
