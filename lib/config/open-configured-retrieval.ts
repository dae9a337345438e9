import type { AgentExtension } from '../agent/extension.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { Tool } from '../tools/types.js';
import type { RetrievalSettings } from './retrieval-node.js';

/** What an agent file's `retrieval:` adds to the agent. */
export interface ConfiguredRetrieval {
  /** The search tool over the index. */
  tool: Tool;
  /** Puts each search's query-embedding usage into the run's usage. */
  extension: AgentExtension;
}

/**
 * Opens the index an agent file's `retrieval:` names (lib/rag is imported only here, when a file
 * has one) and makes its RAGTool: the store by URL (relative paths against `baseDir`, the agent
 * file's directory), the embedder the index was built with, the mode, top_k and threshold.
 */
export async function openConfiguredRetrieval(settings: RetrievalSettings, label: string, baseDir: string): Promise<ConfiguredRetrieval> {
  const [{ openVectorStore }, { createEmbedder }, { KnowledgeBase }, { RAGTool }, { RunUsageLink }] = await Promise.all([
    import('../rag/stores/open-vector-store.js'),
    import('../rag/embedders/create-embedder.js'),
    import('../rag/knowledge-base.js'),
    import('../rag/tools/rag-tools.js'),
    import('../rag/tools/run-usage.js'),
  ]);
  let store;
  let embedder;
  try {
    store = openVectorStore(settings.store, { cwd: baseDir, ...(settings.table === undefined ? {} : { table: settings.table }) });
    embedder = await createEmbedder(settings.embedder ?? 'hashing');
  } catch (error) {
    throw new ConfigurationError(`${label}: retrieval: ${(error as Error).message}`, { key: 'retrieval', cause: error });
  }
  const kb = new KnowledgeBase({ store, embedder });
  const link = new RunUsageLink();
  const tool = RAGTool(kb, {
    usageLink: link,
    ...(settings.mode === undefined ? {} : { mode: settings.mode }),
    ...(settings.topK === undefined ? {} : { topK: settings.topK }),
    ...(settings.scoreThreshold === undefined ? {} : { scoreThreshold: settings.scoreThreshold }),
    ...(settings.toolName === undefined ? {} : { name: settings.toolName }),
    ...(settings.description === undefined ? {} : { description: settings.description }),
  });
  return { tool, extension: link.extension };
}
