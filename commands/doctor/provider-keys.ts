import type { AgentFileConfig } from '../../lib/config/types.js';
import { checkResult, envValue, type CheckResult } from './check.js';
import { providerEntries } from './config-file.js';

/** The environment variables the adapters read keys from. */
export const PROVIDER_KEY_VARIABLES = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'AZURE_OPENAI_API_KEY'] as const;

/** The key variables to report: the standard ones plus every `api_key_env` of the config. */
export function keyVariables(config: AgentFileConfig | undefined): string[] {
  const names: string[] = [...PROVIDER_KEY_VARIABLES];
  for (const entry of providerEntries(config?.provider)) {
    const name = entry.apiKeyEnv ?? entry.api_key_env;
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * Which provider keys are set. Values are never read into the report: only "set" or "not set".
 * A warning when none is set (unless the config uses Ollama only); never fails (the probes do).
 */
export function checkProviderKeys(env: Readonly<Record<string, string | undefined>>, config?: AgentFileConfig): CheckResult {
  const names = keyVariables(config);
  const set = names.filter((name) => envValue(env, name) !== undefined);
  const unset = names.filter((name) => envValue(env, name) === undefined);
  const entries = providerEntries(config?.provider);
  const keyless = entries.length > 0 && entries.every((entry) => entry.type === 'ollama');
  const detail = [set.length > 0 ? `set: ${set.join(', ')}` : 'no provider key set', ...(unset.length > 0 && set.length > 0 ? [`not set: ${unset.join(', ')}`] : [])].join('; ');
  return checkResult({
    id: 'provider-keys',
    title: 'Provider keys',
    status: set.length > 0 || keyless ? 'ok' : 'warn',
    required: false,
    detail,
    hint: set.length > 0 || keyless ? undefined : `set one of ${PROVIDER_KEY_VARIABLES.join(', ')} (or run Ollama locally)`,
    data: { set, unset },
  });
}
