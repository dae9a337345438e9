import { ConfigurationError } from '../core/errors/configuration-error.js';
import { closestMatch } from '../core/suggest.js';
import { FallbackProvider, type FallbackEntry } from './fallback.js';
import type { ProviderTimeoutOptions } from './call-timeouts.js';
import type { Provider } from './spec.js';

/** The provider kinds `createProvider` knows. */
export const PROVIDER_TYPES = ['openai', 'anthropic', 'gemini', 'ollama', 'openai-compatible', 'azure'] as const;

/** One of PROVIDER_TYPES. */
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** A provider described as data (agent YAML `provider:`), camelCase or the YAML's snake_case. */
export interface ProviderConfig {
  type: ProviderType;
  model?: string;
  baseURL?: string;
  base_url?: string;
  apiKey?: string;
  /** Read the key from this environment variable. */
  apiKeyEnv?: string;
  api_key_env?: string;
  /** Total time one call may take, ms (adapter default 600000). */
  timeoutMs?: number;
  timeout_ms?: number;
  /** Streams: the longest wait for the first byte of the reply, ms (default 60000; 0: none). */
  firstByteTimeoutMs?: number;
  first_byte_timeout_ms?: number;
  /** Streams: the longest silence between two pieces of the reply, ms (default 60000; 0: none). */
  idleTimeoutMs?: number;
  idle_timeout_ms?: number;
  /** azure: the deployment called when a request names no model (default: `model`). */
  deployment?: string;
  /** azure: the `api-version` query parameter (default `AZURE_OPENAI_API_VERSION`, else `OPENAI_API_VERSION`, else `DEFAULT_AZURE_OPENAI_API_VERSION`). */
  apiVersion?: string;
  api_version?: string;
  /**
   * azure: whether the deployments serve a reasoning model (`max_completion_tokens`, no
   * `temperature`); default guessed from the deployment name.
   */
  reasoningModel?: boolean;
  reasoning_model?: boolean;
  /**
   * Label in events and `providerUsed`: of the entry in a list (fallback chain), and for
   * openai-compatible also the provider's name.
   */
  name?: string;
}

/** A name, an object, or a list (a fallback chain, in priority order). */
export type ProviderSpec = ProviderType | ProviderConfig | readonly (ProviderType | ProviderConfig)[];

function normalise(spec: ProviderType | ProviderConfig): ProviderConfig {
  const config: ProviderConfig = typeof spec === 'string' ? { type: spec } : spec;
  if (!(PROVIDER_TYPES as readonly string[]).includes(config.type)) {
    const suggestion = closestMatch(String(config.type), PROVIDER_TYPES);
    throw new ConfigurationError(
      `Unknown provider "${String(config.type)}"${suggestion ? ` — did you mean "${suggestion}"?` : ''} (known: ${PROVIDER_TYPES.join(', ')})`,
      { key: 'provider', ...(suggestion ? { suggestion } : {}) },
    );
  }
  return config;
}

function keyFrom(config: ProviderConfig): string | undefined {
  const variable = config.apiKeyEnv ?? config.api_key_env;
  if (variable === undefined) return config.apiKey;
  const value = process.env[variable];
  if (!value) throw new ConfigurationError(`Provider "${config.type}": the environment variable ${variable} is not set`, { key: 'provider.api_key_env' });
  return value;
}

/**
 * Builds a provider from its description. The SDK of a provider is imported only here, when one
 * is created (`import 'agentlib'` loads none). A list becomes a FallbackProvider whose entries keep
 * their own models.
 */
export async function createProvider(spec: ProviderSpec): Promise<Provider> {
  if (Array.isArray(spec)) {
    const list = spec as readonly (ProviderType | ProviderConfig)[];
    if (list.length === 0) throw new ConfigurationError('A provider list (fallback chain) needs at least one provider', { key: 'provider' });
    const entries: FallbackEntry[] = await Promise.all(list.map(async (item) => {
      const config = normalise(item);
      const provider = await createOne(config);
      const entry: FallbackEntry = { provider, label: config.name ?? provider.name };
      // An Azure entry is called by its deployment (which `model` only names when no deployment is given).
      const model = config.type === 'azure' ? (config.deployment ?? config.model) : config.model;
      if (model !== undefined) entry.model = model;
      return entry;
    }));
    if (entries.length === 1) return (entries[0] as FallbackEntry).provider;
    // Entries must be told apart in providerUsed and provider-fallback events: a repeated label
    // (two unnamed `openai` entries) gets its position, `openai#2`.
    const seen = new Set<string>();
    for (const [position, entry] of entries.entries()) {
      if (seen.has(entry.label as string)) entry.label = `${entry.label as string}#${position + 1}`;
      seen.add(entry.label as string);
    }
    return new FallbackProvider(entries);
  }
  return createOne(normalise(spec as ProviderType | ProviderConfig));
}

/** The timeouts of a provider description (camelCase or snake_case), the ones given only. */
function timeoutsOf(config: ProviderConfig): ProviderTimeoutOptions {
  const timeouts: ProviderTimeoutOptions = {};
  const total = config.timeoutMs ?? config.timeout_ms;
  const firstByte = config.firstByteTimeoutMs ?? config.first_byte_timeout_ms;
  const idle = config.idleTimeoutMs ?? config.idle_timeout_ms;
  if (total !== undefined) timeouts.timeoutMs = total;
  if (firstByte !== undefined) timeouts.firstByteTimeoutMs = firstByte;
  if (idle !== undefined) timeouts.idleTimeoutMs = idle;
  return timeouts;
}

/**
 * `spec` with `timeouts` set on it (on every entry of a fallback chain), over the timeouts it
 * had: what `--timeout` does to the file's provider.
 */
export function withProviderTimeouts(spec: ProviderSpec, timeouts: ProviderTimeoutOptions): ProviderSpec {
  if (Array.isArray(spec)) return (spec as readonly (ProviderType | ProviderConfig)[]).map((entry) => withProviderTimeouts(entry, timeouts) as ProviderConfig);
  const config: ProviderConfig = typeof spec === 'string' ? { type: spec } : { ...(spec as ProviderConfig) };
  return { ...config, ...timeouts };
}

async function createOne(config: ProviderConfig): Promise<Provider> {
  const apiKey = keyFrom(config);
  const baseURL = config.baseURL ?? config.base_url;
  const timeouts = timeoutsOf(config);
  const common: { model?: string } & ProviderTimeoutOptions = {
    ...(config.model === undefined ? {} : { model: config.model }),
    ...timeouts,
  };
  switch (config.type) {
    case 'openai': {
      const { OpenAIProvider } = await import('./openai/index.js');
      return new OpenAIProvider({ ...common, ...(apiKey === undefined ? {} : { apiKey }), ...(baseURL === undefined ? {} : { baseURL }) });
    }
    case 'openai-compatible': {
      const { OpenAICompatibleProvider } = await import('./openai/index.js');
      if (!baseURL) throw new ConfigurationError('Provider "openai-compatible" needs base_url', { key: 'provider.base_url' });
      if (!config.model) throw new ConfigurationError('Provider "openai-compatible" needs model', { key: 'provider.model' });
      return new OpenAICompatibleProvider({
        ...common,
        baseURL,
        model: config.model,
        ...(apiKey === undefined ? {} : { apiKey }),
        ...(config.name === undefined ? {} : { name: config.name }),
      });
    }
    case 'anthropic': {
      const { AnthropicProvider } = await import('./anthropic/index.js');
      return new AnthropicProvider({ ...common, ...(apiKey === undefined ? {} : { apiKey }), ...(baseURL === undefined ? {} : { baseURL }) });
    }
    case 'gemini': {
      const { GeminiProvider } = await import('./gemini/index.js');
      return new GeminiProvider({ ...common, ...(apiKey === undefined ? {} : { apiKey }), ...(baseURL === undefined ? {} : { baseURL }) });
    }
    case 'azure': {
      const { AzureOpenAIProvider } = await import('./openai/index.js');
      // Azure routes by deployment: `deployment`, else `model`, names it; base_url is the resource endpoint.
      const deployment = config.deployment ?? config.model;
      if (!deployment) throw new ConfigurationError('Provider "azure" needs deployment (or model: the deployment name)', { key: 'provider.deployment' });
      const apiVersion = config.apiVersion ?? config.api_version;
      const reasoningModel = config.reasoningModel ?? config.reasoning_model;
      return new AzureOpenAIProvider({
        deployment,
        ...(apiKey === undefined ? {} : { apiKey }),
        ...(baseURL === undefined ? {} : { endpoint: baseURL }),
        ...(apiVersion === undefined ? {} : { apiVersion }),
        ...(reasoningModel === undefined ? {} : { reasoningModel }),
        ...timeouts,
      });
    }
    case 'ollama': {
      const { OllamaProvider } = await import('./ollama/index.js');
      return new OllamaProvider({ ...common, ...(baseURL === undefined ? {} : { host: baseURL }), ...(apiKey === undefined ? {} : { apiKey }) });
    }
  }
}
