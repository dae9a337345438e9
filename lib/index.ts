/**
 * agentlib — build, run, serve, evaluate and debug tool-calling LLM agents.
 *
 * The curated public API. Areas are also available as subpaths: `agentlib/core`, `agentlib/tools`,
 * `agentlib/providers`, `agentlib/agent`, `agentlib/events`, `agentlib/trace`, and test doubles in
 * `agentlib/test`.
 */
export * from './core/index.js';
export {
  Agent,
  AgentResult,
  AgentStream,
  AGENT_DEFAULTS,
  REASONING_STRATEGIES,
  estimateRunTokens,
  estimateTokens,
  estimateTokensSync,
  failedRunResult,
  type AgentConfig,
  type AgentExtension,
  type AgentInput,
  type AgentResultJSON,
  type ApprovalDecision,
  type ApprovalHandler,
  type ApprovalRequest,
  type BatchOptions,
  type BudgetConfig,
  type ConfirmAction,
  type ExtensionContext,
  type ModelSelector,
  type ReasoningStrategy,
  type ReasoningStrategyName,
  type ResponseCache,
  type ResponseFormat,
  type RunOptions,
  type StopCondition,
  type TokenEstimate,
  type ToolsConfig,
  type TraceConfig,
} from './agent/index.js';
export {
  AGENT_EVENT_TYPES,
  EventBus,
  LoggingObserver,
  SimpleStepObserver,
  redactSecrets,
  serializeError,
  type AgentEvent,
  type AgentEventOf,
  type AgentEventType,
  type AgentObserver,
  type RunStatus,
  type SerializedError,
} from './events/index.js';
export {
  AnthropicModels,
  FallbackProvider,
  createProvider,
  type ProviderSpec,
  type FallbackEntry,
  type FallbackOptions,
  GeminiModels,
  ModelType,
  OllamaModels,
  OpenAIModels,
  defaultModelFor,
  embedWithRetry,
  getModelInfo,
  isFailoverError,
  listModels,
  priceEmbedding,
  priceUsage,
  registerModel,
  type FinishReason,
  type ModelInfo,
  type Provider,
  type ProviderCapabilities,
  type ProviderRequest,
  type ProviderResponse,
  type EmbedRetryOptions,
  type RetryOptions,
  type StreamPart,
} from './providers/index.js';
export { PolicyDecision, ToolPolicy, type DenyWhenRule, type PolicyResult, type ToolPolicyOptions } from './safety/index.js';
export {
  ToolLoader,
  ToolRegistry,
  isTool,
  loadTools,
  serializeToolResult,
  tool,
  type Tool,
  type ToolContext,
  type ToolDefinition,
  type ToolOptions,
} from './tools/index.js';
/**
 * zod, as agentlib itself uses it: `import { tool, z } from 'agentlib'` builds tool parameters with
 * the same zod that converts them, and a tool module needs no zod install of its own.
 */
export { z } from 'zod';
export { AgentTrace, STEP_TYPES, StepType, type TraceStep } from './trace/index.js';
export {
  listTemplates,
  loadAgent,
  loadAgentConfig,
  loadTemplate,
  parseAgentConfig,
  type AgentFileConfig,
  type LoadAgentOptions,
} from './config/index.js';
export { ReplayProvider, RecordingProvider, type RecordingOptions, type ReplayOptions } from './providers/replay/index.js';
