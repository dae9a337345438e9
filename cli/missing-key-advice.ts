import { ProviderConfigurationError } from '../lib/core/errors/provider-configuration-error.js';
import { DEFAULT_MODELS } from '../lib/providers/models/defaults.js';

/**
 * What to do when a provider has no API key (a ProviderConfigurationError with `keyVariables`):
 * set the key, replay a cassette offline, use a local Ollama model, or check the setup with
 * doctor. Empty for any other error.
 */
export function missingKeyAdvice(error: unknown, program = 'agentlib'): string[] {
  if (!ProviderConfigurationError.isInstance(error)) return [];
  const [variable] = error.keyVariables ?? [];
  if (variable === undefined) return [];
  const ollama = DEFAULT_MODELS.ollama;
  return [
    `No API key for ${error.provider}. Any one of these gets the agent running:`,
    `  set the key:        export ${variable}=…`,
    `  replay offline:     add --replay <cassette.jsonl> (no key needed; every template and every \`${program} init\` project has a cassette.jsonl beside its agent.yaml)`,
    `  use a local model:  add --provider ollama --model ${ollama} (Ollama running, after \`ollama pull ${ollama}\`)`,
    `  check the setup:    ${program} doctor`,
  ];
}
