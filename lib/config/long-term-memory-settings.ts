import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { EntityMemoryOptions } from '../memory/entities/entity-memory.js';
import type { ExtractorOptions } from '../memory/extraction-call.js';
import type { KnowledgeGraphMemoryOptions } from '../memory/knowledge-graph/knowledge-graph-memory.js';
import type { KnowledgeMemoryOptions } from '../memory/knowledge/knowledge-memory.js';
import type { Provider } from '../providers/spec.js';
import type { ProviderSpec } from '../providers/create-provider.js';
import { namespaceOf } from './session-settings.js';
import type { AgentFileConfig, ExtractorSettings } from './types.js';

/** What the memory components of an agent file become: Agent options (each Agent makes its own memories on shared stores). */
export interface LongTermMemoryOptions {
  entityMemory?: EntityMemoryOptions;
  knowledgeGraph?: KnowledgeGraphMemoryOptions;
  knowledgeMemory?: KnowledgeMemoryOptions;
}

/** Creates a provider from a spec (the loader's `createProvider`). */
export type ProviderFactory = (spec: ProviderSpec) => Promise<Provider>;

async function extractorOf(settings: ExtractorSettings, key: string, agentProvider: Provider, create: ProviderFactory, label: string): Promise<ExtractorOptions | undefined> {
  if (settings.extractorProvider === undefined && settings.extractorModel === undefined && settings.extractorMaxTokens === undefined) return undefined;
  let provider = agentProvider;
  if (settings.extractorProvider !== undefined) {
    try {
      provider = await create(settings.extractorProvider);
    } catch (error) {
      if (!ConfigurationError.isInstance(error)) throw error;
      throw new ConfigurationError(`${label}: ${key}.extractor_provider: ${error.message}`, { key: `${key}.extractor_provider`, cause: error });
    }
  }
  return {
    provider,
    ...(settings.extractorModel === undefined ? {} : { model: settings.extractorModel }),
    ...(settings.extractorMaxTokens === undefined ? {} : { maxTokens: settings.extractorMaxTokens }),
  };
}

/**
 * The options of `entity_memory:`, `knowledge_graph:` and `knowledge_memory:`: their stores opened
 * (namespace: the key's `namespace`, else the agent's name), their extraction model created. The
 * store modules are imported only when a file uses them.
 */
export async function longTermMemoryOptions(config: AgentFileConfig, agentProvider: Provider, create: ProviderFactory, label: string): Promise<LongTermMemoryOptions> {
  const options: LongTermMemoryOptions = {};
  const agentNamespace = namespaceOf(config.name ?? 'agent');
  const entity = config.entityMemory;
  if (entity !== undefined) {
    const namespace = entity.namespace ?? agentNamespace;
    const store = entity.store === 'memory'
      ? new (await import('../memory/entities/memory-entity-store.js')).MemoryEntityStore({ namespace })
      : new (await import('../memory/entities/sqlite-entity-store.js')).SQLiteEntityStore({ namespace, ...(entity.path === undefined ? {} : { path: entity.path }) });
    const extractor = await extractorOf(entity, 'entity_memory', agentProvider, create, label);
    options.entityMemory = {
      store,
      ...(entity.maxEntities === undefined ? {} : { maxEntities: entity.maxEntities }),
      ...(entity.maxInjected === undefined ? {} : { maxInjected: entity.maxInjected }),
      ...(extractor === undefined ? {} : { extractor }),
    };
  }
  const graph = config.knowledgeGraph;
  if (graph !== undefined) {
    const namespace = graph.namespace ?? agentNamespace;
    const store = graph.store === 'memory'
      ? new (await import('../memory/knowledge-graph/memory-triple-store.js')).MemoryTripleStore({ namespace })
      : new (await import('../memory/knowledge-graph/sqlite-triple-store.js')).SQLiteTripleStore({ namespace, ...(graph.path === undefined ? {} : { path: graph.path }) });
    const extractor = await extractorOf(graph, 'knowledge_graph', agentProvider, create, label);
    options.knowledgeGraph = {
      store,
      ...(graph.maxInjected === undefined ? {} : { maxInjected: graph.maxInjected }),
      ...(graph.minConfidence === undefined ? {} : { minConfidence: graph.minConfidence }),
      ...(extractor === undefined ? {} : { extractor }),
    };
  }
  const knowledge = config.knowledgeMemory;
  if (knowledge !== undefined) {
    const namespace = knowledge.namespace ?? agentNamespace;
    const kind = knowledge.store ?? 'file';
    const store = kind === 'memory'
      ? new (await import('../memory/knowledge/memory-knowledge-store.js')).MemoryKnowledgeStore({ namespace })
      : kind === 'sqlite'
        ? new (await import('../memory/knowledge/sqlite-knowledge-store.js')).SQLiteKnowledgeStore({ namespace, ...(knowledge.path === undefined ? {} : { path: knowledge.path }) })
        : new (await import('../memory/knowledge/file-knowledge-store.js')).FileKnowledgeStore({ namespace, ...(knowledge.path === undefined ? {} : { directory: knowledge.path }) });
    options.knowledgeMemory = {
      store,
      ...(knowledge.maxEntries === undefined ? {} : { maxEntries: knowledge.maxEntries }),
      ...(knowledge.maxEntryChars === undefined ? {} : { maxEntryChars: knowledge.maxEntryChars }),
      ...(knowledge.recentDays === undefined ? {} : { recentDays: knowledge.recentDays }),
      ...(knowledge.maxRecentLines === undefined ? {} : { maxRecentLines: knowledge.maxRecentLines }),
    };
  }
  return options;
}
