import type { AgentExtension, ExtensionContext } from '../../agent/extension.js';
import type { Message } from '../../core/message.js';
import { Role } from '../../core/role.js';
import { serializeError } from '../../events/serialized-error.js';
import { hasContent, withContextBlock } from '../context-block.js';
import type { ExtractorOptions } from '../extraction-call.js';
import type { KnowledgeGraphMemory } from './knowledge-graph-memory.js';

/** The text a run's relevant relationships are chosen by: its latest user message. */
function latestUserText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === Role.USER) return messages[i]!.content;
  return '';
}

/**
 * The agent-loop side of a KnowledgeGraphMemory: before a conversation run, the "Known
 * Relationships" relevant to the input; after it (a cancelled run too, when it added content), one
 * extraction call, the triples stored, then `kg-extraction` (step `kg_extraction`). A failed call
 * is an `error` event (stage `llm`); nothing is stored. `ask` and `batch` runs are left alone.
 */
export function knowledgeGraphExtension(graph: KnowledgeGraphMemory, fallbackExtractor: ExtractorOptions): AgentExtension {
  return {
    name: 'knowledge-graph',
    async beforeRun(ctx: ExtensionContext, messages: Message[]): Promise<Message[] | undefined> {
      if (!ctx.conversation) return undefined;
      return withContextBlock(messages, await graph.contextBlock(latestUserText(messages)));
    },
    async afterRun(ctx: ExtensionContext, added: readonly Message[]): Promise<void> {
      if (!ctx.conversation || !hasContent(added)) return;
      try {
        const { triples, usage } = await graph.extract(added, graph.extractor ?? fallbackExtractor);
        if (usage !== undefined) ctx.usage.addLlmCall(usage);
        const kept = triples.filter((t) => t.confidence >= graph.minConfidence);
        await graph.add(kept);
        await ctx.emit('kg-extraction', { triples: kept.length });
      } catch (error) {
        await ctx.emit('error', { error: serializeError(error), stage: 'llm' });
      }
    },
  };
}
