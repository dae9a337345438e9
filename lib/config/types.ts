import type { CacheSettings } from './cache-node.js';
import type { RetrievalSettings } from './retrieval-node.js';
import type { ReasoningStrategyName } from '../agent/strategies.js';
import type { BudgetConfig } from '../agent/types.js';
import type { ProviderSpec } from '../providers/create-provider.js';
import type { RetryOptions } from '../providers/retry.js';
import type { PolicySpec } from './policy-node.js';
import type { ToolSourceRef } from './tool-sources.js';

/** `memory:` as validated. */
export interface MemorySettings {
  maxMessages?: number;
  maxTokens?: number;
  summarizeOnTrim?: boolean;
  summarizeProvider?: ProviderSpec;
  summarizeModel?: string;
  summarizeMaxTokens?: number;
}

/** `session:` as validated. */
export interface SessionSettings {
  store?: 'memory' | 'file' | 'sqlite' | 'redis';
  id?: string;
  path?: string;
  url?: string;
  namespace?: string;
  ttl?: number;
}

/** Extraction model keys shared by `entity_memory:` and `knowledge_graph:`. */
export interface ExtractorSettings {
  extractorProvider?: ProviderSpec;
  extractorModel?: string;
  extractorMaxTokens?: number;
}

/** `entity_memory:` as validated (`true` = `{}`). */
export interface EntityMemorySettings extends ExtractorSettings {
  store?: 'memory' | 'sqlite';
  path?: string;
  namespace?: string;
  maxEntities?: number;
  maxInjected?: number;
}

/** `knowledge_graph:` as validated (`true` = `{}`). */
export interface KnowledgeGraphSettings extends ExtractorSettings {
  store?: 'memory' | 'sqlite';
  path?: string;
  namespace?: string;
  maxInjected?: number;
  minConfidence?: number;
}

/** `knowledge_memory:` as validated (`true` = `{}`). */
export interface KnowledgeMemorySettings {
  store?: 'file' | 'sqlite' | 'memory';
  path?: string;
  namespace?: string;
  maxEntries?: number;
  maxEntryChars?: number;
  recentDays?: number;
  maxRecentLines?: number;
}

/** One guardrail entry: `type`, `action` and the type's options (camelCase). */
export interface GuardrailSettings {
  type: 'topic' | 'pii' | 'toxicity' | 'format' | 'length';
  action?: 'block' | 'rewrite' | 'warn';
  [option: string]: unknown;
}

/** `screening:` as validated. */
export interface ScreeningSettings {
  allTools?: boolean;
  tools?: string[];
  /** Regex sources: a list, or name → source. */
  patterns?: string[] | Record<string, string>;
  noBuiltIns?: boolean;
  placeholder?: string;
  decodeBase64?: boolean;
}

/** `coherence:` as validated. */
export interface CoherenceSettings {
  enabled?: boolean;
  provider?: ProviderSpec;
  model?: string;
  failClosed?: boolean;
  timeoutMs?: number;
  tools?: string[];
}

/** One MCP server entry (`transport` filled in from `command` / `url`). */
export interface McpServerSettings {
  name: string;
  transport: 'stdio' | 'http';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  tools?: string[];
}

/**
 * A validated agent YAML file, camelCase: the description of an agent, not the agent. Nothing here
 * creates an SDK client or imports a tool module.
 */
export interface AgentFileConfig {
  /** The file (absolute) or label the config came from. */
  source: string;
  /** The directory relative paths were resolved against. */
  baseDir: string;
  /**
   * Environment variables whose values were interpolated (`${NAME}`), in first-use order (not the
   * caller's `vars`). `--record` scrubs their values from the cassette like secrets.
   */
  interpolatedEnv?: string[];
  name?: string;
  description?: string;
  /** What `createProvider` takes: a name, an object, or a list (fallback chain). */
  provider?: ProviderSpec;
  model?: string;
  systemPrompt?: string;
  temperature?: number;
  maxTokens?: number;
  maxIterations?: number;
  reasoningStrategy?: ReasoningStrategyName;
  routingOnly?: boolean;
  verbose?: boolean;
  enableAnalytics?: boolean;
  /** Tool sources, resolved (files and directories absolute, packages with their entry file). */
  tools: ToolSourceRef[];
  toolConfig?: { parallel?: boolean; approvalTimeout?: number; recursive?: boolean };
  policy?: PolicySpec;
  retry?: RetryOptions;
  budget?: BudgetConfig;
  trace?: { metadata?: Record<string, unknown>; toolResultChars?: number; parentRunId?: string };
  structured?: { maxRetries?: number };
  /** `cache:`: where LLM replies and cacheable tool results are kept (opened when the agent is built). */
  cache?: CacheSettings;
  /** `retrieval:` (or `rag:` / `knowledge:`): the index the agent's search tool reads (opened when the agent is built). */
  retrieval?: RetrievalSettings;
  /** The conversation window (lib/memory/). */
  memory?: MemorySettings;
  /** Persistent sessions (lib/sessions/). */
  session?: SessionSettings;
  /** Entity memory (lib/memory/entities/). */
  entityMemory?: EntityMemorySettings;
  /** Knowledge graph (lib/memory/knowledge-graph/). */
  knowledgeGraph?: KnowledgeGraphSettings;
  /** Long-term knowledge memory (lib/memory/knowledge/). */
  knowledgeMemory?: KnowledgeMemorySettings;
  /** Prompt compression (lib/memory/). */
  compress?: { threshold?: number; keepRecent?: number; contextWindow?: number; maxChars?: number };
  /** `guardrails:` as validated. */
  guardrails?: { input?: GuardrailSettings[]; output?: GuardrailSettings[]; toolArguments?: GuardrailSettings[]; toolResult?: GuardrailSettings[] };
  /** `screening:` as validated. */
  screening?: ScreeningSettings;
  /** `coherence:` as validated. */
  coherence?: CoherenceSettings;
  /** `audit:` as validated (`dir` resolved against the file's directory). */
  audit?: { dir: string; privacy?: 'full' | 'keys_only' | 'hashed' | 'none'; rotateDaily?: boolean };
  /** `mcp:` as validated. */
  mcp?: { servers?: McpServerSettings[] };
}

/** Options of `parseAgentConfig` / `loadAgentConfig`. */
export interface AgentConfigOptions {
  /** Variables for `${NAME}` interpolation; they win over the environment (`--var k=v`). */
  vars?: Readonly<Record<string, string>>;
  /** The environment for `${NAME}`. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Options of `parseAgentConfig` (text in memory). */
export interface ParseAgentConfigOptions extends AgentConfigOptions {
  /** File name shown in error positions. Default `agent.yaml`. */
  source?: string;
  /** Directory tool and policy paths resolve against. Default `process.cwd()`. */
  baseDir?: string;
}
