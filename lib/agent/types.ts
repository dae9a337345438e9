import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { CancellationToken } from '../core/cancellation-token.js';
import type { IdGenerator } from '../core/ids.js';
import type { JsonSchema } from '../core/json.js';
import type { Message } from '../core/message.js';
import type { Sleep } from '../core/sleep.js';
import type { ToolCall } from '../core/tool-call.js';
import type { AgentUsage } from '../core/usage.js';
import type { AgentObserver } from '../events/observer.js';
import type { ObserverErrorHandler } from '../events/observer-error.js';
import type { Provider } from '../providers/spec.js';
import type { RetryOptions } from '../providers/retry.js';
import type { ToolPolicy } from '../safety/tool-policy.js';
import type { Tool } from '../tools/types.js';
import type { ReasoningStrategyName } from './strategies.js';
import type { AgentExtension } from './extension.js';
import type { ConversationMemory, ConversationMemoryOptions } from '../memory/conversation-memory.js';
import type { SessionBinding, SessionStore } from '../sessions/types.js';
import type { EntityMemory, EntityMemoryOptions } from '../memory/entities/entity-memory.js';
import type { KnowledgeGraphMemory, KnowledgeGraphMemoryOptions } from '../memory/knowledge-graph/knowledge-graph-memory.js';
import type { KnowledgeMemory, KnowledgeMemoryOptions } from '../memory/knowledge/knowledge-memory.js';
import type { SafetyAgentConfig } from '../safety/safety-config.js';

/** What a run takes: a prompt, or messages to append to the conversation. */
export type AgentInput = string | readonly Message[];

/** Structured output: a zod schema (or any Standard Schema) or a JSON Schema object. */
export type ResponseFormat = StandardSchemaV1 | JsonSchema;

/** Chooses the model for an iteration; return undefined to keep the configured one. */
export type ModelSelector = (info: { iteration: number; messages: readonly Message[]; usage: AgentUsage; currentModel: string }) => string | undefined;

/** Decides, after tools ran, whether the run should stop without another LLM call. */
export type StopCondition = (info: {
  iteration: number;
  toolCalls: readonly ToolCall[];
  results: readonly { toolName: string; content: string; isError: boolean }[];
  messages: readonly Message[];
}) => boolean | Promise<boolean>;

/** The spec's confirm_action: sync or async, returns whether the call may run. */
export type ConfirmAction = (toolName: string, args: Record<string, unknown>, reason: string) => boolean | Promise<boolean>;

/** A tool call waiting for a human decision. */
export interface ApprovalRequest {
  runId: string;
  callId: string;
  toolName: string;
  args: Record<string, unknown>;
  /** Why approval is needed (policy reason or `requiresApproval`). */
  reason: string;
  /** Aborted when the run is cancelled or the approval times out. */
  signal: AbortSignal;
}

/**
 * An approval answer. `true`/`false`, or an object: `scope: 'session'` approves this tool for the
 * rest of the agent's session (until `reset()`); `feedback` on a denial is sent to the model.
 */
export type ApprovalDecision = boolean | { approved: boolean; scope?: 'once' | 'session'; feedback?: string };

/** Answers approval requests (TUI, HTTP policy, scripted tests). Takes precedence over `confirmAction`. */
export type ApprovalHandler = (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>;

/**
 * What the loop tells a cache about a lookup besides its exact key. A plain key/value cache ignores
 * it; `SemanticCache` (lib/cache/) uses `scope` and `text` to serve a paraphrase of an earlier
 * question. Built by `responseCacheHint` (lib/agent/cache-key.ts).
 */
export interface CacheHint {
  /** `response`: an LLM reply; `tool`: a cacheable tool's result (never matched by similarity). */
  kind: 'response' | 'tool';
  /**
   * For responses: SHA-256 over everything except the last user message (model, system prompt,
   * tools, sampling settings, response format and every earlier message). A semantic hit needs an
   * equal scope.
   */
  scope?: string;
  /** For responses whose last message is the user's: that message's text (what a semantic cache compares). */
  text?: string;
}

/** Minimal cache protocol the loop uses (the cache subsystem provides InMemoryCache, RedisCache, …). */
export interface ResponseCache {
  /** The stored value, or undefined (may return a Promise). */
  get(key: string, hint?: CacheHint): unknown;
  set(key: string, value: unknown, ttlSeconds?: number, hint?: CacheHint): Promise<void> | void;
}

/** Budget limits of one run. */
export interface BudgetConfig {
  /** Stop (with a partial result) once the run has used this many tokens. */
  maxTotalTokens?: number;
  /** Stop (with a partial result) once the run has cost this many USD. */
  maxCostUsd?: number;
  /** Emit one `cost-warning` event when the run's cost crosses this many USD. */
  costWarningThreshold?: number;
}

/** How messages leaving the conversation window are summarised (the `summarize` group). */
export interface SummarizeConfig {
  /** Summarise trimmed messages instead of forgetting them. Default false. */
  onTrim?: boolean;
  /** Provider of the summaries. Default: the agent's provider. */
  provider?: Provider;
  /** Model of the summaries. Default: the agent's model (or the summary provider's default model). */
  model?: string;
  /** Cap of a summary reply, in tokens. Default 500. */
  maxTokens?: number;
}

/** Prompt compression (the `compress` group): see `agentlib/memory` promptCompression. */
export interface CompressConfig {
  /** Fill of the context window at which compression starts, in (0, 1]. Default 0.75. */
  threshold?: number;
  /** Latest turns sent verbatim. Default 3. */
  keepRecent?: number;
  /** Context window in tokens. Default: the model registry's value for the agent's model. */
  contextWindow?: number;
  /** Characters kept of each older message. Default 300. */
  maxChars?: number;
}

/** Tool-handling settings. */
export interface ToolsConfig {
  /** Run several requested tools at once. Default true. */
  parallel?: boolean;
  /** Allow / review / deny rules. Without a policy every tool is allowed (except `requiresApproval` tools). */
  policy?: ToolPolicy;
  /** Called for review decisions when no ApprovalHandler is given to the run. */
  confirmAction?: ConfirmAction;
  /** Seconds to wait for an approval; a timeout denies. Default 60; 0 or Infinity waits indefinitely. */
  approvalTimeout?: number;
}

/** Trace shaping. */
export interface TraceConfig {
  /** Links this agent's runs to a parent run (graph node, sub-agent). */
  parentRunId?: string;
  /** Extra metadata stored in every trace. */
  metadata?: Record<string, unknown>;
  /** Characters of tool output kept in trace steps. Default 2000. */
  toolResultChars?: number;
}

/** Structured-output settings. */
export interface StructuredConfig {
  /** Extra LLM calls allowed to fix invalid structured output (they do not count as iterations). Default 2. */
  maxRetries?: number;
}

/** Deterministic clocks and ids for tests. @internal */
export interface AgentRuntime {
  now: () => number;
  generateId: IdGenerator;
  sleep: Sleep;
  random: () => number;
}

/**
 * Configuration of an Agent. Nested groups are canonical (`retry`, `budget`, `toolConfig`,
 * `trace`, `structured`); the spec's flat names (`maxRetries`, `maxCostUsd`, `toolPolicy`, …)
 * are accepted as aliases and normalised once.
 */
export interface AgentConfig {
  provider: Provider;
  /** Agent name. Default `agent`. */
  name?: string;
  /** Model id. Default: the provider's own default model. */
  model?: string;
  modelSelector?: ModelSelector;
  /** Replaces the built-in system prompt. */
  systemPrompt?: string;
  /** Tools the model may call. Agents without tools are allowed. */
  tools?: readonly Tool[];
  /** Iteration cap. Default 6. */
  maxIterations?: number;
  /** Default 0. */
  temperature?: number;
  /** Default 1000. */
  maxTokens?: number;
  /** Return the model's tool selection without executing it. */
  routingOnly?: boolean;
  stopCondition?: StopCondition;
  /** Default structured output for every run (a run's own `responseFormat` wins). */
  responseFormat?: ResponseFormat;
  reasoningStrategy?: ReasoningStrategyName;
  observers?: readonly AgentObserver[];
  /** Called when an observer throws (the run goes on). Default: one process warning per observer and method. */
  onObserverError?: ObserverErrorHandler;
  /** @deprecated use `observers`. A dict of callbacks wrapped as an observer (warns once). */
  hooks?: Record<string, (...args: never[]) => unknown>;
  /** LLM reply cache (not used by `stream`) and the cache of `cacheable` tools. */
  cache?: ResponseCache;
  cancellationToken?: CancellationToken;
  retry?: RetryOptions;
  budget?: BudgetConfig;
  toolConfig?: ToolsConfig;
  trace?: TraceConfig;
  structured?: StructuredConfig;
  /**
   * The conversation window: a ConversationMemory (shared or restored), or its options. Without it
   * (and without `summarize`) the agent keeps the whole conversation.
   */
  memory?: ConversationMemory | ConversationMemoryOptions;
  /** Summaries of the messages leaving the window (implies a memory with the default limits). */
  summarize?: SummarizeConfig;
  /**
   * Persists the conversation in a SessionStore (`agentlib/sessions`): loaded before the first
   * run, appended after every run. Without `memory`, the whole session is the context.
   */
  session?: SessionBinding;
  /** Compress the per-call messages when they near the context window (never the memory). */
  compress?: CompressConfig;
  /**
   * Entities of the conversation (people, organisations, projects…), extracted after each run by
   * one structured LLM call and given back as "Known Entities" (an EntityMemory, or its options).
   */
  entityMemory?: EntityMemory | EntityMemoryOptions;
  /** Relationships as triples, extracted after each run; the relevant ones given back as "Known Relationships". */
  knowledgeGraph?: KnowledgeGraphMemory | KnowledgeGraphMemoryOptions;
  /** Long-term memory with the `remember` tool and daily logs ("Long-term Memory", "Recent Memory"). */
  knowledgeMemory?: KnowledgeMemory | KnowledgeMemoryOptions;
  /** Extensions of your own; they run after the built-in ones (safety, memory, sessions, compression). */
  extensions?: readonly AgentExtension[];
  /** Input, output, tool-argument and tool-result guardrails (docs/safety.md). */
  guardrails?: NonNullable<SafetyAgentConfig['guardrails']>;
  /** Tool-output screening for prompt injection. Tools with `screenOutput: true` are always screened. */
  screening?: NonNullable<SafetyAgentConfig['screening']>;
  /** The intent check before each tool call (one extra LLM call). */
  coherence?: NonNullable<SafetyAgentConfig['coherence']>;
  /** Print cache hits and tool calls to stderr. */
  verbose?: boolean;
  /** Keep per-run analytics (tool latency, call counts) on the agent. */
  enableAnalytics?: boolean;
  // Flat aliases of the spec.
  maxRetries?: number;
  maxTotalTokens?: number;
  maxCostUsd?: number;
  costWarningThreshold?: number;
  toolPolicy?: ToolPolicy;
  confirmAction?: ConfirmAction;
  approvalTimeout?: number;
  parallelToolExecution?: boolean;
  parentRunId?: string;
  traceMetadata?: Record<string, unknown>;
  traceToolResultChars?: number;
  summarizeOnTrim?: boolean;
  summarizeProvider?: Provider;
  summarizeModel?: string;
  summarizeMaxTokens?: number;
  sessionStore?: SessionStore;
  sessionId?: string;
  /** Turns prompt compression on with the defaults (the spec's flat name; `compress` is the group). */
  compressContext?: boolean;
  compressThreshold?: number;
  compressKeepRecent?: number;
  screenToolOutput?: boolean;
  outputScreeningPatterns?: NonNullable<SafetyAgentConfig['outputScreeningPatterns']>;
  coherenceCheck?: boolean;
  coherenceProvider?: Provider;
  coherenceModel?: string;
  /** @internal deterministic clock / ids for tests. */
  runtime?: Partial<AgentRuntime>;
}

/** Options of one run. */
export interface RunOptions<C = unknown> {
  /** Structured output for this run. */
  responseFormat?: ResponseFormat;
  /** Links this run to a parent run. */
  parentRunId?: string;
  /** Passed to tools as `ctx.context`. */
  context?: C;
  /** Aborts this run (in addition to the agent's CancellationToken). */
  signal?: AbortSignal;
  /** Answers review-gated tool calls. */
  approve?: ApprovalHandler;
  /** Overrides maxIterations for this run. */
  maxIterations?: number;
  /**
   * Observers of this run only: they get every event of this run (the same events, in the same
   * order, as the agent's own observers), and no event of any other run of the agent. Blocking
   * observers are awaited like the agent's; the run settles only after this run's fire-and-forget
   * observer promises have settled (nobody could flush them later). Errors are reported through the
   * agent's `onObserverError`, never thrown. With `batch`, each run of the batch gets them.
   * Not an array of objects → ConfigurationError.
   *
   * @example
   * await agent.ask('Where is order 42?', { observers: [{ onToolStart: (e) => console.log('tool', e.toolName) }] });
   */
  observers?: readonly AgentObserver[];
}
