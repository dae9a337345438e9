import { Agent } from '../agent/agent.js';
import type { AgentConfig } from '../agent/types.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { Provider } from '../providers/spec.js';
import type { Chunker } from './chunkers/chunker.js';
import type { Document } from './document.js';
import type { EmbeddingProvider } from './embedders/embedding-provider.js';
import { ProviderEmbedder } from './embedders/provider-embedder.js';
import { KnowledgeBase, type SearchMode } from './knowledge-base.js';
import { loadDirectory, type DirectoryLoadOptions } from './loaders/directory-loader.js';
import { loadFile, type LoadFileOptions } from './loaders/load-file.js';
import type { Reranker } from './rerankers/reranker.js';
import { InMemoryVectorStore } from './stores/memory-vector-store.js';
import type { VectorStore } from './stores/vector-store.js';
import { RAGTool } from './tools/rag-tools.js';
import { RunUsageLink } from './tools/run-usage.js';
import { AgentUsage } from '../core/usage.js';

/** Options of the RAGAgent constructors. */
export interface RAGAgentOptions {
  /** The chat model's provider. */
  provider: Provider;
  /** Where the chunks go. Default a new InMemoryVectorStore. */
  store?: VectorStore;
  /**
   * Embeds chunks and queries. Default: `provider`'s own embeddings (OpenAI, Gemini, Ollama); a
   * provider without them (Anthropic) needs one here, e.g. `new HashingEmbedder()` (lexical).
   */
  embedder?: EmbeddingProvider;
  /** Default a RecursiveTextSplitter (1,000 / 200). */
  chunker?: Chunker;
  /** Passages below this score are not shown to the model. Default 0.0. */
  scoreThreshold?: number;
  /** Passages per search. Default 3. */
  topK?: number;
  /** Default 'vector'. */
  mode?: SearchMode;
  reranker?: Reranker;
  /** The agent's configuration (its provider is `provider`); the RAG tool is added to its tools. */
  agentConfig?: Omit<AgentConfig, 'provider'>;
}

const DEFAULT_PROMPT =
  'You answer questions from a knowledge base. Search it with the search_knowledge_base tool before answering, answer only ' +
  'from the passages it returns, and cite each fact with its source in square brackets, e.g. [handbook.md]. If the ' +
  'passages do not answer the question, say so.';

/**
 * An Agent with a knowledge base and the RAG tool: build one from documents, a folder or files.
 * The embedding tokens and cost of its searches are part of each run's usage.
 *
 * @example
 * const agent = await RAGAgent.fromDirectory('./docs', { provider: new OpenAIProvider() });
 * const result = await agent.run('How many vacation days do I get?');
 */
export class RAGAgent extends Agent {
  readonly knowledgeBase: KnowledgeBase;
  /**
   * What building the index cost (`embeddingTokens`, `totalEmbeddingCostUsd` of embedding the chunks
   * in fromDocuments / fromDirectory / fromFiles): spent before any run, so in no run's usage.
   * Empty for fromKnowledgeBase.
   */
  readonly indexingUsage: AgentUsage;

  private constructor(config: AgentConfig, knowledgeBase: KnowledgeBase, indexingUsage: AgentUsage) {
    super(config);
    this.knowledgeBase = knowledgeBase;
    this.indexingUsage = indexingUsage;
  }

  /** A RAG agent over documents (chunked, embedded and stored first). */
  static async fromDocuments(documents: readonly Document[], options: RAGAgentOptions): Promise<RAGAgent> {
    const embedder = options.embedder ?? defaultEmbedder(options.provider);
    const kb = new KnowledgeBase({ store: options.store ?? new InMemoryVectorStore(), embedder, ...(options.chunker ? { chunker: options.chunker } : {}) });
    const usage = new AgentUsage();
    await kb.addDocuments(documents, { usage });
    return RAGAgent.fromKnowledgeBase(kb, options, usage);
  }

  /** A RAG agent over the files of a folder (see loadDirectory for globs and ignore files). */
  static async fromDirectory(dir: string, options: RAGAgentOptions & { load?: DirectoryLoadOptions }): Promise<RAGAgent> {
    return RAGAgent.fromDocuments(await loadDirectory(dir, options.load ?? {}), options);
  }

  /** A RAG agent over files (each loaded by its extension). */
  static async fromFiles(paths: readonly string[], options: RAGAgentOptions & { load?: LoadFileOptions }): Promise<RAGAgent> {
    const documents: Document[] = [];
    for (const path of paths) documents.push(...(await loadFile(path, options.load ?? {})));
    return RAGAgent.fromDocuments(documents, options);
  }

  /** A RAG agent over an existing knowledge base (an index built earlier, e.g. by `agentlib rag index`). */
  static fromKnowledgeBase(kb: KnowledgeBase, options: Omit<RAGAgentOptions, 'store' | 'embedder' | 'chunker'>, indexingUsage = new AgentUsage()): RAGAgent {
    const link = new RunUsageLink();
    const ragTool = RAGTool(kb, {
      topK: options.topK ?? 3,
      scoreThreshold: options.scoreThreshold ?? 0,
      mode: options.mode ?? 'vector',
      usageLink: link,
      ...(options.reranker ? { reranker: options.reranker } : {}),
    });
    const config = options.agentConfig ?? {};
    return new RAGAgent(
      {
        systemPrompt: DEFAULT_PROMPT,
        ...config,
        provider: options.provider,
        tools: [...(config.tools ?? []), ragTool],
        extensions: [...(config.extensions ?? []), link.extension],
      },
      kb,
      indexingUsage,
    );
  }
}

function defaultEmbedder(provider: Provider): EmbeddingProvider {
  if (typeof provider.embed !== 'function' || !provider.capabilities.embeddings) {
    throw new ConfigurationError(`provider ${provider.name} has no embeddings API: pass an embedder (e.g. new HashingEmbedder(), lexical, or a ProviderEmbedder of another provider)`, { key: 'embedder' });
  }
  return new ProviderEmbedder(provider);
}
