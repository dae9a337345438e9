import type { Provider } from '../providers/spec.js';
import type { GuardrailsPipeline, GuardrailsPipelineOptions } from './guardrails/guardrails-pipeline.js';
import type { UserInjectionPattern } from './screening/output-screener.js';
import type { ScreeningOptions } from './screening/screening-extension.js';

/** `coherence` of AgentConfig: the intent check before tool calls. */
export interface CoherenceConfig {
  /** Turn the check on. Default true when the group is given. */
  enabled?: boolean;
  /** The checker's provider. Default: the agent's provider. */
  provider?: Provider;
  /** The checker's model. Default: the agent's model with the agent's provider, else the checker provider's default. */
  model?: string;
  /** Block the call when the check's own call fails. Default false (fail-open). */
  failClosed?: boolean;
  /** Time limit of one check. Default 10 000 ms. */
  timeoutMs?: number;
  /** Only check these tools. Default every tool. */
  tools?: readonly string[];
}

/** The safety settings of AgentConfig (groups and the spec's flat aliases). */
export interface SafetyAgentConfig {
  /** Input, output, tool-argument and tool-result guardrails. */
  guardrails?: GuardrailsPipeline | GuardrailsPipelineOptions;
  /** Tool-output screening. Tools defined with `screenOutput: true` are screened whether or not this is set. */
  screening?: ScreeningOptions;
  /** The intent check before tool calls. */
  coherence?: CoherenceConfig;
  /** Alias of `screening.allTools`. */
  screenToolOutput?: boolean;
  /** Alias of `screening.patterns`. */
  outputScreeningPatterns?: readonly UserInjectionPattern[];
  /** Alias of `coherence.enabled`. */
  coherenceCheck?: boolean;
  /** Alias of `coherence.provider`. */
  coherenceProvider?: Provider;
  /** Alias of `coherence.model`. */
  coherenceModel?: string;
}
