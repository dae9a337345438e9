import type { CancellationToken } from '../core/cancellation-token.js';
import { generateId } from '../core/ids.js';
import { sleep } from '../core/sleep.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { DEFAULT_RETRY, type ResolvedRetryOptions } from '../providers/retry.js';
import type { Provider } from '../providers/spec.js';
import type { ToolPolicy } from '../safety/tool-policy.js';
import { safetyExtensions } from '../safety/safety-extensions.js';
import { checkAgentOptions } from './check-agent-options.js';
import type { AgentExtension } from './extension.js';
import { isReasoningStrategy, type ReasoningStrategyName } from './strategies.js';
import type {
  AgentConfig,
  AgentRuntime,
  ConfirmAction,
  ModelSelector,
  ResponseCache,
  ResponseFormat,
  StopCondition,
} from './types.js';

/** Defaults the spec leaves open (REFERENCE.md §1). */
export const AGENT_DEFAULTS = {
  name: 'agent',
  maxIterations: 6,
  temperature: 0,
  maxTokens: 1000,
  approvalTimeout: 60,
  toolResultChars: 2000,
  structuredRetries: 2,
} as const;

/** AgentConfig with every alias folded into its group and every default applied. */
export interface ResolvedAgentConfig {
  provider: Provider;
  name: string;
  model: string;
  modelSelector: ModelSelector | undefined;
  systemPrompt: string | undefined;
  maxIterations: number;
  temperature: number;
  maxTokens: number;
  routingOnly: boolean;
  stopCondition: StopCondition | undefined;
  responseFormat: ResponseFormat | undefined;
  reasoningStrategy: ReasoningStrategyName | undefined;
  cache: ResponseCache | undefined;
  cancellationToken: CancellationToken | undefined;
  retry: ResolvedRetryOptions;
  budget: { maxTotalTokens: number | undefined; maxCostUsd: number | undefined; costWarningThreshold: number | undefined };
  tools: {
    parallel: boolean;
    policy: ToolPolicy | undefined;
    confirmAction: ConfirmAction | undefined;
    approvalTimeoutMs: number;
  };
  trace: { parentRunId: string | undefined; metadata: Record<string, unknown>; toolResultChars: number };
  structuredRetries: number;
  extensions: readonly AgentExtension[];
  verbose: boolean;
  enableAnalytics: boolean;
  runtime: AgentRuntime;
}

/** Validates an optional positive integer setting (ConfigurationError otherwise). */
export function positiveInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new ConfigurationError(`AgentConfig.${name} must be a positive integer, got ${String(value)}`, { key: name });
  }
  return value;
}

function nonNegativeInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) {
    throw new ConfigurationError(`AgentConfig.${name} must be a non-negative integer, got ${String(value)}`, { key: name });
  }
  return value;
}

function nonNegative(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new ConfigurationError(`AgentConfig.${name} must be a non-negative number, got ${String(value)}`, { key: name });
  }
  return value;
}

/** Folds aliases into groups, applies defaults and validates. Throws on invalid values. */
export function resolveAgentConfig(config: AgentConfig): ResolvedAgentConfig {
  if (typeof config !== 'object' || config === null || typeof config.provider?.complete !== 'function') {
    throw new ConfigurationError('AgentConfig.provider is required and must implement the Provider protocol');
  }
  checkAgentOptions(config);
  if (config.reasoningStrategy !== undefined && !isReasoningStrategy(config.reasoningStrategy)) {
    throw new ConfigurationError(
      `Unknown reasoningStrategy "${String(config.reasoningStrategy)}" (expected react, cot or plan_then_act)`,
    );
  }
  const retry = { ...DEFAULT_RETRY, ...config.retry };
  if (config.maxRetries !== undefined) retry.maxRetries = config.maxRetries;
  const approvalTimeout = nonNegative('approvalTimeout', config.toolConfig?.approvalTimeout ?? config.approvalTimeout);
  return {
    provider: config.provider,
    name: config.name ?? AGENT_DEFAULTS.name,
    model: config.model ?? config.provider.defaultModel,
    modelSelector: config.modelSelector,
    systemPrompt: config.systemPrompt,
    maxIterations: positiveInt('maxIterations', config.maxIterations, AGENT_DEFAULTS.maxIterations),
    temperature: config.temperature ?? AGENT_DEFAULTS.temperature,
    maxTokens: positiveInt('maxTokens', config.maxTokens, AGENT_DEFAULTS.maxTokens),
    routingOnly: config.routingOnly ?? false,
    stopCondition: config.stopCondition,
    responseFormat: config.responseFormat,
    reasoningStrategy: config.reasoningStrategy,
    cache: config.cache,
    cancellationToken: config.cancellationToken,
    retry,
    budget: {
      maxTotalTokens: nonNegative('maxTotalTokens', config.budget?.maxTotalTokens ?? config.maxTotalTokens),
      maxCostUsd: nonNegative('maxCostUsd', config.budget?.maxCostUsd ?? config.maxCostUsd),
      costWarningThreshold: nonNegative('costWarningThreshold', config.budget?.costWarningThreshold ?? config.costWarningThreshold),
    },
    tools: {
      parallel: config.toolConfig?.parallel ?? config.parallelToolExecution ?? true,
      policy: config.toolConfig?.policy ?? config.toolPolicy,
      confirmAction: config.toolConfig?.confirmAction ?? config.confirmAction,
      // 0 or Infinity: wait for the approver indefinitely (the event reports timeoutMs 0).
      // Longer than setTimeout can wait (about 24.8 days) is clamped, and reported as clamped.
      approvalTimeoutMs: approvalTimeout === 0 || approvalTimeout === Infinity ? 0 : Math.min((approvalTimeout ?? AGENT_DEFAULTS.approvalTimeout) * 1000, 2 ** 31 - 1),
    },
    trace: {
      parentRunId: config.trace?.parentRunId ?? config.parentRunId,
      metadata: { ...config.traceMetadata, ...config.trace?.metadata },
      toolResultChars: positiveInt(
        'traceToolResultChars',
        config.trace?.toolResultChars ?? config.traceToolResultChars,
        AGENT_DEFAULTS.toolResultChars,
      ),
    },
    structuredRetries: nonNegativeInt('structured.maxRetries', config.structured?.maxRetries, AGENT_DEFAULTS.structuredRetries),
    extensions: [...safetyExtensions(config, { provider: config.provider, model: config.model ?? config.provider.defaultModel }), ...(config.extensions ?? [])],
    verbose: config.verbose ?? false,
    enableAnalytics: config.enableAnalytics ?? false,
    runtime: {
      now: config.runtime?.now ?? Date.now,
      generateId: config.runtime?.generateId ?? generateId,
      sleep: config.runtime?.sleep ?? sleep,
      random: config.runtime?.random ?? Math.random,
    },
  };
}
