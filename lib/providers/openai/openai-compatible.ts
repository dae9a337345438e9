import { ProviderConfigurationError } from '../../core/errors/provider-configuration-error.js';
import type { ProviderTimeoutOptions } from '../call-timeouts.js';
import type { ProviderCapabilities } from '../spec.js';
import { OpenAIProvider } from './provider.js';

/** Options of an OpenAICompatibleProvider. */
export interface OpenAICompatibleOptions extends ProviderTimeoutOptions {
  /** The server's OpenAI-compatible base URL, e.g. `http://localhost:11434/v1` (Ollama), `http://localhost:1234/v1` (LM Studio). */
  baseURL: string;
  /** The model to call; required (there is no sensible default for an arbitrary server). */
  model: string;
  /** Provider name in events, traces and errors. Default `openai-compatible`. */
  name?: string;
  /** API key. The environment's OPENAI_API_KEY is never sent to another server implicitly. */
  apiKey?: string;
  /** Read the key from this environment variable instead (e.g. `GROQ_API_KEY`). */
  apiKeyEnv?: string;
  /**
   * `OpenAI-Organization` / `OpenAI-Project` headers: sent only when given here. The environment's
   * OPENAI_ORG_ID / OPENAI_PROJECT_ID are never sent to another server.
   */
  organization?: string;
  project?: string;
  /** What the server supports, when it is less than OpenAI (e.g. `{ tools: false }` for models without tool calling). */
  capabilities?: Partial<ProviderCapabilities>;
}

/**
 * Any server that speaks OpenAI's Chat Completions API (vLLM, LM Studio, Ollama's `/v1`, Groq,
 * Together, Azure-style gateways): the OpenAI adapter with an explicit base URL, model and key.
 */
export class OpenAICompatibleProvider extends OpenAIProvider {
  override readonly name: string;
  override readonly capabilities: ProviderCapabilities;

  constructor(options: OpenAICompatibleOptions) {
    const name = options.name ?? 'openai-compatible';
    if (!options.baseURL) throw new ProviderConfigurationError(`${name}: baseURL is required`, { provider: name });
    if (!options.model) throw new ProviderConfigurationError(`${name}: model is required (the server's model id)`, { provider: name });
    const fromEnv = options.apiKeyEnv ? process.env[options.apiKeyEnv] : undefined;
    if (options.apiKeyEnv && !fromEnv && !options.apiKey) {
      throw new ProviderConfigurationError(`${name}: API key missing: set ${options.apiKeyEnv}`, { provider: name, keyVariables: [options.apiKeyEnv] });
    }
    const apiKey = options.apiKey ?? fromEnv;
    super({
      baseURL: options.baseURL,
      model: options.model,
      // An empty key keeps OPENAI_API_KEY out: the adapter then sends no Authorization header.
      apiKey: apiKey ?? '',
      // null (not undefined) keeps the SDK from reading OPENAI_ORG_ID / OPENAI_PROJECT_ID.
      organization: options.organization ?? null,
      project: options.project ?? null,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.firstByteTimeoutMs === undefined ? {} : { firstByteTimeoutMs: options.firstByteTimeoutMs }),
      ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
    });
    this.name = name;
    this.capabilities = { tools: true, streaming: true, structuredOutput: true, vision: true, embeddings: true, ...options.capabilities };
  }
}
