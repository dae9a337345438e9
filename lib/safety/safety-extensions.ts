import type { AgentExtension } from '../agent/extension.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { Provider } from '../providers/spec.js';
import { coherenceCheck } from './coherence/coherence-check.js';
import { guardrailsExtension } from './guardrails/guardrails-extension.js';
import { GuardrailsPipeline } from './guardrails/guardrails-pipeline.js';
import type { SafetyAgentConfig } from './safety-config.js';
import { screeningExtension } from './screening/screening-extension.js';

function build<T>(what: string, make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (ConfigurationError.isInstance(error)) throw error;
    throw new ConfigurationError(`AgentConfig.${what}: ${error instanceof Error ? error.message : String(error)}`, { key: what, cause: error });
  }
}

/**
 * The extensions the safety settings of an AgentConfig stand for, in the order they must run:
 * guardrails (input first, so later checks see the sanitised text), the coherence check, then
 * screening (always present: tools defined with `screenOutput: true` are screened even when no
 * screening setting is given).
 */
export function safetyExtensions(config: SafetyAgentConfig, agent: { provider: Provider; model: string }): AgentExtension[] {
  const extensions: AgentExtension[] = [];
  const { guardrails } = config;
  if (guardrails !== undefined) {
    const pipeline = guardrails instanceof GuardrailsPipeline ? guardrails : build('guardrails', () => new GuardrailsPipeline(guardrails));
    if (!pipeline.empty) extensions.push(guardrailsExtension(pipeline));
  }
  const coherence = config.coherence ?? {};
  const enabled = coherence.enabled ?? config.coherenceCheck ?? (config.coherence !== undefined);
  const conflicting = config.coherence !== undefined && (config.coherenceProvider !== undefined || config.coherenceModel !== undefined || config.coherenceCheck !== undefined);
  if (conflicting) throw new ConfigurationError('AgentConfig.coherence and the flat coherenceCheck / coherenceProvider / coherenceModel are both set: use one', { key: 'coherence' });
  if (!enabled && (config.coherenceProvider !== undefined || config.coherenceModel !== undefined)) {
    throw new ConfigurationError('AgentConfig.coherenceProvider / coherenceModel are set but coherenceCheck is not true, so they would be ignored', { key: 'coherenceCheck' });
  }
  if (enabled) {
    const provider = coherence.provider ?? config.coherenceProvider ?? agent.provider;
    const model = coherence.model ?? config.coherenceModel ?? (provider === agent.provider ? agent.model : undefined);
    extensions.push(
      build('coherence', () =>
        coherenceCheck({
          provider,
          ...(model === undefined ? {} : { model }),
          ...(coherence.failClosed === undefined ? {} : { failClosed: coherence.failClosed }),
          ...(coherence.timeoutMs === undefined ? {} : { timeoutMs: coherence.timeoutMs }),
          ...(coherence.tools === undefined ? {} : { tools: coherence.tools }),
        }),
      ),
    );
  }
  if (config.screening !== undefined && (config.screenToolOutput !== undefined || config.outputScreeningPatterns !== undefined)) {
    throw new ConfigurationError('AgentConfig.screening and the flat screenToolOutput / outputScreeningPatterns are both set: use one', { key: 'screening' });
  }
  const screening = config.screening ?? {
    ...(config.screenToolOutput === undefined ? {} : { allTools: config.screenToolOutput }),
    ...(config.outputScreeningPatterns === undefined ? {} : { patterns: config.outputScreeningPatterns }),
  };
  extensions.push(build('screening', () => screeningExtension(screening)));
  return extensions;
}
