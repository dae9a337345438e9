import { ConfigurationError } from '../core/errors/configuration-error.js';
import { EntityMemory, type EntityMemoryOptions } from '../memory/entities/entity-memory.js';
import { entityMemoryExtension } from '../memory/entities/entity-memory-extension.js';
import type { ExtractorOptions } from '../memory/extraction-call.js';
import { KnowledgeGraphMemory, type KnowledgeGraphMemoryOptions } from '../memory/knowledge-graph/knowledge-graph-memory.js';
import { knowledgeGraphExtension } from '../memory/knowledge-graph/knowledge-graph-extension.js';
import { KnowledgeMemory, type KnowledgeMemoryOptions } from '../memory/knowledge/knowledge-memory.js';
import { knowledgeMemoryExtension } from '../memory/knowledge/knowledge-memory-extension.js';
import { rememberTool } from '../memory/knowledge/remember-tool.js';
import type { Tool } from '../tools/types.js';
import type { AgentExtension } from './extension.js';

/** The Agent options this module resolves. */
export interface LongTermMemoryConfig {
  entityMemory?: EntityMemory | EntityMemoryOptions;
  knowledgeGraph?: KnowledgeGraphMemory | KnowledgeGraphMemoryOptions;
  knowledgeMemory?: KnowledgeMemory | KnowledgeMemoryOptions;
}

/** The agent's entity, knowledge-graph and knowledge memories with their extensions and tools. */
export interface LongTermMemory {
  entityMemory: EntityMemory | undefined;
  knowledgeGraph: KnowledgeGraphMemory | undefined;
  knowledgeMemory: KnowledgeMemory | undefined;
  extensions: AgentExtension[];
  tools: Tool[];
}

function plainOptions(value: unknown, option: string, className: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) {
    throw new ConfigurationError(`AgentConfig.${option} must be ${className} (an instance) or its options object`, { key: option });
  }
}

/**
 * Builds the memories the options ask for (an instance is used as it is; options make a new one)
 * and their extensions, in the order entities, relationships, long-term memory. Extraction calls
 * use the memory's own `extractor`, else the agent's provider and model. A KnowledgeMemory adds
 * the `remember` tool.
 */
export function resolveLongTermMemory(config: LongTermMemoryConfig, extractor: ExtractorOptions): LongTermMemory {
  const result: LongTermMemory = { entityMemory: undefined, knowledgeGraph: undefined, knowledgeMemory: undefined, extensions: [], tools: [] };
  if (config.entityMemory !== undefined) {
    if (!(config.entityMemory instanceof EntityMemory)) plainOptions(config.entityMemory, 'entityMemory', 'EntityMemory');
    result.entityMemory = config.entityMemory instanceof EntityMemory ? config.entityMemory : new EntityMemory(config.entityMemory);
    result.extensions.push(entityMemoryExtension(result.entityMemory, extractor));
  }
  if (config.knowledgeGraph !== undefined) {
    if (!(config.knowledgeGraph instanceof KnowledgeGraphMemory)) plainOptions(config.knowledgeGraph, 'knowledgeGraph', 'KnowledgeGraphMemory');
    result.knowledgeGraph = config.knowledgeGraph instanceof KnowledgeGraphMemory ? config.knowledgeGraph : new KnowledgeGraphMemory(config.knowledgeGraph);
    result.extensions.push(knowledgeGraphExtension(result.knowledgeGraph, extractor));
  }
  if (config.knowledgeMemory !== undefined) {
    if (!(config.knowledgeMemory instanceof KnowledgeMemory)) plainOptions(config.knowledgeMemory, 'knowledgeMemory', 'KnowledgeMemory');
    result.knowledgeMemory = config.knowledgeMemory instanceof KnowledgeMemory ? config.knowledgeMemory : new KnowledgeMemory(config.knowledgeMemory);
    result.extensions.push(knowledgeMemoryExtension(result.knowledgeMemory));
    result.tools.push(rememberTool(result.knowledgeMemory));
  }
  return result;
}
