/**
 * Memory (`agentlib/memory`): the conversation window with summaries, entity memory, the knowledge
 * graph (TripleStores) and long-term knowledge memory (KnowledgeStores, the `remember` tool), and
 * their agent extensions.
 * An Agent takes `memory` / `summarize` options directly; this entry is for using a memory on its
 * own, sharing one between agents, or restoring one from JSON.
 */
export {
  ConversationMemory,
  MEMORY_DEFAULTS,
  SUMMARY_HEADER,
  type AppendOptions,
  type ConversationMemoryOptions,
  type TrimReport,
} from './conversation-memory.js';
export { memoryExtension, type MemoryExtensionOptions } from './memory-extension.js';
export { MEMORY_SNAPSHOT_VERSION, parseMemorySnapshot, type MemorySnapshot } from './memory-snapshot.js';
export { capSummary, DEFAULT_SUMMARY_MAX_TOKENS, MAX_SUMMARY_CHARS, summarize, type SummarizeOptions } from './summarizer.js';
export { isWindowStart, windowStart, type WindowLimits } from './window.js';
export { structuredCall, transcript, DEFAULT_EXTRACTION_MAX_TOKENS, type ExtractorOptions } from './extraction-call.js';
// Entity memory
export { ENTITY_TYPES, entityKey, mergeEntity, type Entity, type EntityType, type ExtractedEntity } from './entities/entity.js';
export { EntityMemory, ENTITY_BLOCK_TITLE, ENTITY_EXTRACTION_SCHEMA, ENTITY_MEMORY_DEFAULTS, parseExtractedEntities, type EntityMemoryOptions, type EntityMemorySnapshot } from './entities/entity-memory.js';
export { entityMemoryExtension } from './entities/entity-memory-extension.js';
export { DEFAULT_MEMORY_NAMESPACE, type EntityStore } from './entities/entity-store.js';
export { MemoryEntityStore } from './entities/memory-entity-store.js';
export { ENTITY_MIGRATIONS, SQLiteEntityStore } from './entities/sqlite-entity-store.js';
// Knowledge graph
export { type Triple, type TripleQuery } from './knowledge-graph/triple.js';
export { type TripleStore } from './knowledge-graph/triple-store.js';
export { MemoryTripleStore } from './knowledge-graph/memory-triple-store.js';
export { SQLiteTripleStore, TRIPLE_MIGRATIONS } from './knowledge-graph/sqlite-triple-store.js';
export { KnowledgeGraphMemory, KNOWLEDGE_GRAPH_DEFAULTS, parseExtractedTriples, queryKeywords, RELATIONSHIPS_BLOCK_TITLE, TRIPLE_EXTRACTION_SCHEMA, type KnowledgeGraphMemoryOptions } from './knowledge-graph/knowledge-graph-memory.js';
export { knowledgeGraphExtension } from './knowledge-graph/knowledge-graph-extension.js';
// Knowledge (long-term) memory
export { type KnowledgeEntry } from './knowledge/knowledge-entry.js';
export { type KnowledgeStore } from './knowledge/knowledge-store.js';
export { MemoryKnowledgeStore } from './knowledge/memory-knowledge-store.js';
export { DEFAULT_KNOWLEDGE_DIR, FileKnowledgeStore } from './knowledge/file-knowledge-store.js';
export { KNOWLEDGE_MIGRATIONS, SQLiteKnowledgeStore } from './knowledge/sqlite-knowledge-store.js';
export { KnowledgeMemory, KNOWLEDGE_MEMORY_DEFAULTS, LONG_TERM_BLOCK_TITLE, RECENT_BLOCK_TITLE, type KnowledgeMemoryOptions, type RememberInput } from './knowledge/knowledge-memory.js';
export { knowledgeMemoryExtension } from './knowledge/knowledge-memory-extension.js';
export { rememberTool, REMEMBER_TOOL_NAME } from './knowledge/remember-tool.js';
