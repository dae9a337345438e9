import type { AgentExtension, ExtensionContext } from '../../agent/extension.js';
import type { Message } from '../../core/message.js';
import { serializeError } from '../../events/serialized-error.js';
import { hasContent, withContextBlock } from '../context-block.js';
import type { ExtractorOptions } from '../extraction-call.js';
import type { EntityMemory } from './entity-memory.js';

/**
 * The agent-loop side of an EntityMemory: before a conversation run, the "Known Entities" block;
 * after it (a cancelled run too, when it added content), one extraction call over the run's
 * messages, merged into the memory, then `entity-extraction` (step `entity_extraction`). The
 * call's tokens count in the run's usage. A failed call is an `error` event (stage `llm`): the
 * answer stands and no entity changes. `ask` and `batch` runs are left alone.
 */
export function entityMemoryExtension(memory: EntityMemory, fallbackExtractor: ExtractorOptions): AgentExtension {
  return {
    name: 'entity-memory',
    async beforeRun(ctx: ExtensionContext, messages: Message[]): Promise<Message[] | undefined> {
      if (!ctx.conversation) return undefined;
      await memory.ready();
      return withContextBlock(messages, memory.contextBlock());
    },
    async afterRun(ctx: ExtensionContext, added: readonly Message[]): Promise<void> {
      if (!ctx.conversation || !hasContent(added)) return;
      try {
        // No signal: a cancelled run's messages are still read (its signal is aborted by then).
        const { entities, usage } = await memory.extract(added, memory.extractor ?? fallbackExtractor);
        if (usage !== undefined) ctx.usage.addLlmCall(usage);
        const merged = await memory.merge(entities);
        await ctx.emit('entity-extraction', { entities: merged.length, names: merged.map((e) => e.name) });
      } catch (error) {
        await ctx.emit('error', { error: serializeError(error), stage: 'llm' });
      }
    },
  };
}
