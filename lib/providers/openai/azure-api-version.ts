// Which Azure OpenAI `api-version` to send. Kept apart from azure.ts (no SDK import), so
// `agentlib doctor` probes with exactly the version the adapter would use.

/**
 * The `api-version` sent when none is configured: the newest dated data-plane inference version,
 * which serves reasoning deployments on the deployment routes this adapter uses
 * (`max_completion_tokens`, `reasoning_effort`, developer messages): Microsoft's reasoning-model
 * docs require it for o3 and o4-mini, and 2024-12-01-preview or later for o1 and o3-mini. The
 * newest dated GA version, `2024-10-21`, predates them (Azure refuses o-series deployments on it).
 * A preview version, not GA: why, and why not the v1 API, in docs/providers.md (Azure OpenAI).
 */
export const DEFAULT_AZURE_OPENAI_API_VERSION = '2025-04-01-preview';

/** The environment variables read for the version, in order of precedence. */
export const AZURE_API_VERSION_VARIABLES = ['AZURE_OPENAI_API_VERSION', 'OPENAI_API_VERSION'] as const;

/** A resolved `api-version` and where it came from (`explicit`, a variable name, or `default`). */
export interface AzureApiVersion {
  version: string;
  source: 'explicit' | (typeof AZURE_API_VERSION_VARIABLES)[number] | 'default';
}

/**
 * The `api-version` to use: `explicit` (the `apiVersion` option / `api_version` in YAML) when
 * given, else `AZURE_OPENAI_API_VERSION`, else `OPENAI_API_VERSION` (the name the SDK reads), else
 * DEFAULT_AZURE_OPENAI_API_VERSION. Blank values count as unset.
 */
export function resolveAzureApiVersion(explicit: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): AzureApiVersion {
  const given = explicit?.trim();
  if (given) return { version: given, source: 'explicit' };
  for (const name of AZURE_API_VERSION_VARIABLES) {
    const value = env[name]?.trim();
    if (value) return { version: value, source: name };
  }
  return { version: DEFAULT_AZURE_OPENAI_API_VERSION, source: 'default' };
}
