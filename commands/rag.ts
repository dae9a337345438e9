import { UsageError } from '../cli/usage-error.js';
import { closestMatch } from '../lib/core/suggest.js';
import type { CommandArguments, CommandContext } from './command-module.js';
import { runIndex } from './rag/index-action.js';
import { runLs } from './rag/ls-action.js';
import { runSearch } from './rag/search-action.js';

/** The actions of `agentlib rag`, in help order. */
export const RAG_ACTIONS = ['index', 'search', 'ls'] as const;

/**
 * `agentlib rag <action>`: `index` files, folders, globs and URLs into a vector store (unchanged
 * files skipped by content hash), `search` it, `ls` what it holds. Exit codes: 0 ok, 2 usage or
 * configuration, 3 runtime (a store or an embedding API failed), 4 a search that found nothing,
 * 130 interrupted.
 */
export async function run(args: CommandArguments, context: CommandContext): Promise<number> {
  const action = typeof args.action === 'string' ? args.action : '';
  const inputs = (Array.isArray(args.inputs) ? (args.inputs as unknown[]) : []).map(String);
  switch (action) {
    case 'index':
      return runIndex(args, inputs, context);
    case 'search':
      return runSearch(args, inputs, context);
    case 'ls':
    case 'list':
      if (inputs.length > 0) throw new UsageError(`rag ls takes no arguments (got ${inputs.join(' ')})`);
      return runLs(args, context);
    default: {
      const suggestion = closestMatch(action, RAG_ACTIONS);
      throw new UsageError(`unknown rag action "${action}"; expected one of ${RAG_ACTIONS.join(', ')}.${suggestion === undefined ? '' : ` Did you mean "${suggestion}"?`}`, suggestion === undefined ? {} : { suggestion });
    }
  }
}
