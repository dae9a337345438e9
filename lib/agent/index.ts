export { Agent } from './agent.js';
export type { AsToolOptions } from './as-tool.js';
export { AgentStream } from './agent-stream.js';
export { AgentAnalytics, type AgentAnalyticsSnapshot, type ToolAnalytics } from './analytics.js';
export type { BatchOptions } from './batch.js';
export { AGENT_DEFAULTS, resolveAgentConfig, type ResolvedAgentConfig } from './config.js';
export { failedRunResult } from './execute-run.js';
export type { AgentExtension, ExtensionContext, ToolFlags } from './extension.js';
export { AgentResult, type AgentResultInit, type AgentResultJSON } from './result.js';
export { REASONING_STRATEGIES, isReasoningStrategy, type ReasoningStrategy, type ReasoningStrategyName } from './strategies.js';
export { extractJson } from './structured-output.js';
export { stripThink, ThinkFilter } from './think-filter.js';
export * from './token-estimate.js';
export type {
  AgentConfig,
  AgentInput,
  ApprovalDecision,
  ApprovalHandler,
  ApprovalRequest,
  BudgetConfig,
  ConfirmAction,
  ModelSelector,
  CacheHint,
  ResponseCache,
  ResponseFormat,
  RunOptions,
  StopCondition,
  StructuredConfig,
  ToolsConfig,
  TraceConfig,
} from './types.js';
