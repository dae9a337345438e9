/**
 * Memory (`agentlib/memory`): the conversation window with summaries, and its agent extension.
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
