import { ConfigurationError } from '../core/errors/configuration-error.js';
import { closestMatch } from '../core/suggest.js';
import type { RetryOptions } from '../providers/retry.js';
import type { CoherenceConfig } from '../safety/safety-config.js';
import type { ScreeningOptions } from '../safety/screening/screening-extension.js';
import type { AgentConfig, BudgetConfig, StructuredConfig, ToolsConfig, TraceConfig } from './types.js';

type Keys<T> = Readonly<Record<keyof Required<T>, true>>;

/**
 * Every option `new Agent()` reads. Typed as the complete key set of AgentConfig, so a new field
 * does not compile until it is listed here (and so is known to be read).
 */
const AGENT_OPTIONS: Keys<AgentConfig> = {
  provider: true, name: true, model: true, modelSelector: true, systemPrompt: true, tools: true, maxIterations: true,
  temperature: true, maxTokens: true, routingOnly: true, stopCondition: true, responseFormat: true, reasoningStrategy: true,
  observers: true, onObserverError: true, hooks: true, cache: true, cancellationToken: true, retry: true, budget: true,
  toolConfig: true, trace: true, structured: true, extensions: true, verbose: true, enableAnalytics: true, maxRetries: true,
  maxTotalTokens: true, maxCostUsd: true, costWarningThreshold: true, toolPolicy: true, confirmAction: true,
  approvalTimeout: true, parallelToolExecution: true, parentRunId: true, traceMetadata: true, traceToolResultChars: true,
  runtime: true, memory: true, summarize: true, summarizeOnTrim: true, summarizeProvider: true, summarizeModel: true,
  summarizeMaxTokens: true, session: true, sessionStore: true, sessionId: true,
  entityMemory: true, knowledgeGraph: true, knowledgeMemory: true,
  compress: true, compressContext: true, compressThreshold: true, compressKeepRecent: true,
  guardrails: true, screening: true, coherence: true, screenToolOutput: true, outputScreeningPatterns: true,
  coherenceCheck: true, coherenceProvider: true, coherenceModel: true,
};

const RETRY: Keys<RetryOptions> = { maxRetries: true, baseDelayMs: true, maxDelayMs: true, maxRetryAfterMs: true, deadlineMs: true };
const BUDGET: Keys<BudgetConfig> = { maxTotalTokens: true, maxCostUsd: true, costWarningThreshold: true };
const TOOL_CONFIG: Keys<ToolsConfig> = { parallel: true, policy: true, confirmAction: true, approvalTimeout: true };
const TRACE: Keys<TraceConfig> = { parentRunId: true, metadata: true, toolResultChars: true };
const STRUCTURED: Keys<StructuredConfig> = { maxRetries: true };
const SCREENING: Keys<ScreeningOptions> = { allTools: true, tools: true, patterns: true, noBuiltIns: true, placeholder: true, decodeBase64: true };
const COHERENCE: Keys<CoherenceConfig> = { enabled: true, provider: true, model: true, failClosed: true, timeoutMs: true, tools: true };

/** The option groups whose keys are checked too. */
const GROUPS: Readonly<Record<string, Readonly<Record<string, true>>>> = {
  retry: RETRY, budget: BUDGET, toolConfig: TOOL_CONFIG, trace: TRACE, structured: STRUCTURED, screening: SCREENING, coherence: COHERENCE,
};

function checkKeys(value: object, known: Readonly<Record<string, true>>, prefix: string): void {
  for (const [key, option] of Object.entries(value)) {
    if (option === undefined || Object.hasOwn(known, key)) continue;
    const name = `${prefix}${key}`;
    const suggestion = closestMatch(key, Object.keys(known));
    const hint = suggestion === undefined ? `known options: ${Object.keys(known).join(', ')}` : `did you mean "${prefix}${suggestion}"?`;
    throw new ConfigurationError(`Unknown AgentConfig option "${name}" (it would be ignored); ${hint}`, {
      key: name,
      ...(suggestion === undefined ? {} : { suggestion: `${prefix}${suggestion}` }),
    });
  }
}

/**
 * Refuses options `new Agent()` would accept and then ignore: any unknown name, at the top level and inside the groups
 * `retry`, `budget`, `toolConfig`, `trace` and `structured`. Options set to `undefined` are absent.
 */
export function checkAgentOptions(config: object): void {
  checkKeys(config, AGENT_OPTIONS, '');
  for (const [group, known] of Object.entries(GROUPS)) {
    const value: unknown = (config as Record<string, unknown>)[group];
    if (typeof value === 'object' && value !== null) checkKeys(value, known, `${group}.`);
  }
}
