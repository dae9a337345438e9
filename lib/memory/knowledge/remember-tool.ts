import type { Tool } from '../../tools/types.js';
import { tool } from '../../tools/tool.js';
import type { KnowledgeMemory } from './knowledge-memory.js';

/** Name of the tool KnowledgeMemory gives an agent. */
export const REMEMBER_TOOL_NAME = 'remember';

interface RememberArgs {
  content: string;
  importance?: number;
  categories?: string[];
  ttl_seconds?: number;
}

/**
 * The `remember` tool: the model stores a fact for later conversations. Its result tells the
 * model the entry id; a refused entry (too long, bad importance) is a tool error the model sees.
 */
export function rememberTool(memory: KnowledgeMemory): Tool {
  return tool({
    name: REMEMBER_TOOL_NAME,
    description: 'Store a fact, preference or decision in long-term memory so it is known in later conversations. Use it for things worth keeping, not for small talk.',
    parameters: {
      type: 'object',
      properties: {
        content: { type: 'string', description: 'What to remember, as a self-contained sentence.' },
        importance: { type: 'number', minimum: 0, maximum: 1, description: '0 (trivial) to 1 (essential); default 0.5. Less important entries are forgotten first.' },
        categories: { type: 'array', items: { type: 'string' }, description: 'Tags such as "preference", "project".' },
        ttl_seconds: { type: 'number', exclusiveMinimum: 0, description: 'Forget it after this many seconds (default: keep).' },
      },
      required: ['content'],
      additionalProperties: false,
    },
    execute: async (args) => {
      const { content, importance, categories, ttl_seconds: ttl } = args as unknown as RememberArgs;
      const entry = await memory.remember({
        content,
        ...(importance === undefined ? {} : { importance }),
        ...(categories === undefined ? {} : { categories }),
        ...(ttl === undefined ? {} : { ttl }),
      });
      return { remembered: entry.id, importance: entry.importance };
    },
  });
}
