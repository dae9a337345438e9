import type { AgentExtension, ExtensionContext } from '../agent/extension.js';
import type { Message } from '../core/message.js';
import { serializeError } from '../events/serialized-error.js';
import type { ConversationMemory } from './conversation-memory.js';
import type { SummarizeOptions } from './summarizer.js';

/** Options of {@link memoryExtension}. */
export interface MemoryExtensionOptions {
  /** Summary provider and model when the memory has none of its own (the agent's). */
  fallbackSummarizer?: SummarizeOptions;
}

/**
 * The agent-loop side of a ConversationMemory. `beforeRun` starts the run from the memory's
 * summary and window (then the run's input); `afterRun` appends what the run added as one block,
 * trims, summarises, and emits `memory-trim` / `memory-summarize`. A failed summary call is
 * reported as an `error` event (stage `llm`) and loses nothing: the run's answer stands and the
 * window is trimmed on a later append. Runs that stand alone (`ask`, `batch`) are left alone.
 */
export function memoryExtension(memory: ConversationMemory, options: MemoryExtensionOptions = {}): AgentExtension {
  return {
    name: 'memory',
    beforeRun(ctx: ExtensionContext, messages: Message[]): Message[] | undefined {
      if (!ctx.conversation) return undefined;
      return [...memory.contextMessages(), ...messages];
    },
    async afterRun(ctx: ExtensionContext, added: readonly Message[]): Promise<void> {
      if (!ctx.conversation) return;
      try {
        await memory.append(added, {
          ...(options.fallbackSummarizer === undefined ? {} : { fallbackSummarizer: options.fallbackSummarizer }),
          signal: ctx.signal,
          onTrim: (report) => ctx.emit('memory-trim', report),
          onSummarize: (report) => ctx.emit('memory-summarize', report),
        });
      } catch (error) {
        await ctx.emit('error', { error: serializeError(error), stage: 'llm' });
      }
    },
  };
}
