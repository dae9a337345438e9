import type { AgentExtension, ExtensionContext } from '../../agent/extension.js';
import type { Message } from '../../core/message.js';
import { Role } from '../../core/role.js';
import { serializeError } from '../../events/serialized-error.js';
import { withContextBlock } from '../context-block.js';
import type { KnowledgeMemory } from './knowledge-memory.js';

/** Longest text of a turn written to the daily log. */
export const LOG_TEXT_CHARS = 300;

function short(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= LOG_TEXT_CHARS ? flat : `${flat.slice(0, LOG_TEXT_CHARS - 1)}…`;
}

/**
 * The agent-loop side of a KnowledgeMemory: before a conversation run, the "Long-term Memory" and
 * "Recent Memory" blocks; after it, the turn (the user's input and the answer, shortened) in
 * today's log. A log write that fails is an `error` event (stage `run`) and the answer stands.
 * `ask` and `batch` runs are left alone.
 */
export function knowledgeMemoryExtension(memory: KnowledgeMemory): AgentExtension {
  return {
    name: 'knowledge-memory',
    async beforeRun(ctx: ExtensionContext, messages: Message[]): Promise<Message[] | undefined> {
      if (!ctx.conversation) return undefined;
      return withContextBlock(messages, await memory.contextBlock());
    },
    async afterRun(ctx: ExtensionContext, added: readonly Message[], finalContent: string): Promise<void> {
      if (!ctx.conversation) return;
      const input = added.find((m) => m.role === Role.USER)?.content ?? '';
      try {
        if (input.trim() !== '') await memory.log(`user: ${short(input)}`);
        if (finalContent.trim() !== '') await memory.log(`assistant: ${short(finalContent)}`);
      } catch (error) {
        await ctx.emit('error', { error: serializeError(error), stage: 'run' });
      }
    },
  };
}
