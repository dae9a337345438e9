import type { AgentExtension, ExtensionContext } from '../agent/extension.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { Message } from '../core/message.js';
import { Role } from '../core/role.js';
import { estimateTokensSync } from '../agent/token-estimate.js';
import { isWindowStart } from './window.js';

/** Defaults of prompt compression. */
export const COMPRESS_DEFAULTS = { threshold: 0.75, keepRecent: 3, maxChars: 300 } as const;

/** Options of {@link promptCompression}. */
export interface PromptCompressionOptions {
  /** The context window of the model, in tokens. */
  contextWindow: number;
  /** Fill (estimated prompt tokens / context window) at which compression starts, in (0, 1]. Default 0.75. */
  threshold?: number;
  /** Latest turns (a user message and what follows it) sent verbatim. Default 3. */
  keepRecent?: number;
  /** Characters kept of each older message's text. Default 300. */
  maxChars?: number;
}

function check(name: string, value: number, ok: boolean): number {
  if (!ok) throw new ConfigurationError(`prompt compression: ${name} is out of range (got ${String(value)})`, { key: `compress.${name}` });
  return value;
}

function shortened(message: Message, maxChars: number): Message {
  if (message.content.length <= maxChars) return message;
  const omitted = message.content.length - maxChars;
  return { ...message, content: `${message.content.slice(0, maxChars)}… [${omitted} characters compressed away]` };
}

/**
 * Compresses the messages of one LLM call when their estimated size reaches `threshold` of the
 * context window: the latest `keepRecent` turns go verbatim; older messages are cut to `maxChars`
 * of text; when that is still too much, the oldest turns are left out (whole turns: a tool call
 * never loses its result) behind a note. Only the per-call messages change — never the memory or
 * the agent's history — and each compression emits `prompt-compressed`.
 */
export function promptCompression(options: PromptCompressionOptions): AgentExtension {
  const window = check('contextWindow', options.contextWindow, Number.isInteger(options.contextWindow) && options.contextWindow > 0);
  const threshold = check('threshold', options.threshold ?? COMPRESS_DEFAULTS.threshold, (options.threshold ?? COMPRESS_DEFAULTS.threshold) > 0 && (options.threshold ?? COMPRESS_DEFAULTS.threshold) <= 1);
  const keepRecent = check('keepRecent', options.keepRecent ?? COMPRESS_DEFAULTS.keepRecent, Number.isInteger(options.keepRecent ?? COMPRESS_DEFAULTS.keepRecent) && (options.keepRecent ?? COMPRESS_DEFAULTS.keepRecent) >= 1);
  const maxChars = check('maxChars', options.maxChars ?? COMPRESS_DEFAULTS.maxChars, Number.isInteger(options.maxChars ?? COMPRESS_DEFAULTS.maxChars) && (options.maxChars ?? COMPRESS_DEFAULTS.maxChars) >= 0);
  const limit = Math.floor(window * threshold);
  return {
    name: 'compress',
    async beforeModel(ctx: ExtensionContext, messages: readonly Message[]): Promise<readonly Message[] | undefined> {
      const before = estimateTokensSync(messages);
      if (before < limit) return undefined;
      // Where the kept turns start: the keepRecent-th user message from the end.
      let recentStart = messages.length;
      let turns = 0;
      for (let i = messages.length - 1; i >= 0 && turns < keepRecent; i--) {
        if (messages[i]!.role === Role.USER) {
          recentStart = i;
          turns++;
        }
      }
      if (recentStart === 0) return undefined; // everything is recent: nothing to compress
      const older = messages.slice(0, recentStart).map((m) => shortened(m, maxChars));
      const recent = messages.slice(recentStart);
      let compressed = [...older, ...recent];
      // Still too much: leave out the oldest whole turns (keeping leading system messages).
      let dropFrom = older.findIndex((m) => m.role !== Role.SYSTEM);
      if (dropFrom === -1) dropFrom = older.length;
      let keptFrom = dropFrom;
      for (let start = dropFrom + 1; estimateTokensSync(compressed) >= limit && start <= older.length; start++) {
        if (start < older.length && !isWindowStart(older, start)) continue;
        keptFrom = start;
        const note: Message = { role: Role.SYSTEM, content: `[${start - dropFrom} earlier messages left out to fit the context window]` };
        compressed = [...older.slice(0, dropFrom), note, ...older.slice(start), ...recent];
      }
      // Compressed: every older message that was cut short or left out.
      const unchanged = [...older.keys()].filter((i) => (i < dropFrom || i >= keptFrom) && older[i] === messages[i]).length;
      const changed = recentStart - unchanged;
      if (changed === 0) return undefined;
      await ctx.emit('prompt-compressed', { beforeTokens: before, afterTokens: estimateTokensSync(compressed), messagesCompressed: changed });
      return compressed;
    },
  };
}
