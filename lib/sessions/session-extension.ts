import type { AgentExtension, ExtensionContext } from '../agent/extension.js';
import type { Message } from '../core/message.js';
import { AsyncMutex } from '../memory/async-mutex.js';
import { cleanMessage } from '../memory/clean-message.js';
import type { ConversationMemory } from '../memory/conversation-memory.js';
import { memoryExtension, type MemoryExtensionOptions } from '../memory/memory-extension.js';
import type { SessionBinding } from './types.js';

/** A session extension and its controls. */
export interface SessionExtension {
  readonly extension: AgentExtension;
  /** After `Agent.reset()`: the next save replaces the stored session with the new conversation. */
  reset(): void;
}

/**
 * Persists an agent's conversation in a SessionStore. Before the first run it loads the session
 * into `memory` (`session-load`); after every run it appends what the run added, as one block,
 * to the memory and to the stored session (`session-save`). The stored session is the whole
 * conversation (an append-only log, so concurrent writers in other processes lose nothing); the
 * memory windows it. Runs that stand alone (`ask`, `batch`) neither load nor save.
 */
export function sessionExtension(memory: ConversationMemory, binding: SessionBinding, options: MemoryExtensionOptions = {}): SessionExtension {
  const inner = memoryExtension(memory, options);
  const writes = new AsyncMutex();
  let loaded: Promise<void> | undefined;
  let replaceNext = false;
  const ttl = binding.ttl === undefined ? {} : { ttl: binding.ttl };

  const load = (ctx: ExtensionContext): Promise<void> =>
    (loaded ??= (async () => {
      const record = await binding.store.load(binding.id);
      if (record !== undefined) memory.restore(record.messages, record.summary);
      await ctx.emit('session-load', { sessionId: binding.id, messages: record?.messages.length ?? 0 });
    })().catch((error: unknown) => {
      loaded = undefined; // the next run tries again
      throw error;
    }));

  const extension: AgentExtension = {
    name: 'session',
    async beforeRun(ctx: ExtensionContext, messages: Message[]): Promise<Message[] | undefined> {
      if (!ctx.conversation) return undefined;
      await load(ctx);
      return inner.beforeRun!(ctx, messages);
    },
    async afterRun(ctx: ExtensionContext, added: readonly Message[], finalContent: string): Promise<void> {
      if (!ctx.conversation) return;
      const cleaned = added.map(cleanMessage);
      await writes.run(async () => {
        await inner.afterRun!(ctx, cleaned, finalContent);
        let count: number;
        if (replaceNext) {
          replaceNext = false;
          count = (await binding.store.save(binding.id, { messages: memory.messages, summary: memory.summary }, ttl)).messages.length;
        } else {
          count = (await binding.store.append(binding.id, cleaned, { summary: memory.summary, ...ttl })).messages.length;
        }
        await ctx.emit('session-save', { sessionId: binding.id, messages: count });
      });
    },
  };
  return {
    extension,
    reset: () => {
      replaceNext = true;
      loaded = Promise.resolve();
    },
  };
}
