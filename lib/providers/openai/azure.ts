import { AzureOpenAI } from 'openai';
import { ProviderConfigurationError } from '../../core/errors/provider-configuration-error.js';
import { sdkTimeout } from '../call-timeouts.js';
import type { EmbedRequest, EmbedResponse, ProviderCapabilities, ProviderRequest } from '../spec.js';
import { resolveAzureApiVersion } from './azure-api-version.js';
import { toChatParams, type ChatParams } from './convert-request.js';
import { DEFAULT_OPENAI_TIMEOUT_MS, OpenAIProvider } from './provider.js';

/** The provider name in events, traces and errors. */
export const AZURE_OPENAI_PROVIDER_NAME = 'azure-openai';

/** Options of an AzureOpenAIProvider. */
export interface AzureOpenAIProviderOptions {
  /** The resource endpoint, `https://<resource>.openai.azure.com`; default `AZURE_OPENAI_ENDPOINT`. */
  endpoint?: string;
  /** API key (sent as the `api-key` header); default `AZURE_OPENAI_API_KEY`. Not with `azureADTokenProvider`. */
  apiKey?: string;
  /**
   * Microsoft Entra ID (Azure AD) token source, called before every request; the token goes in
   * `Authorization: Bearer`. When given, `AZURE_OPENAI_API_KEY` is not read.
   */
  azureADTokenProvider?: () => Promise<string>;
  /**
   * `api-version` query parameter; default `AZURE_OPENAI_API_VERSION`, else `OPENAI_API_VERSION`,
   * else DEFAULT_AZURE_OPENAI_API_VERSION (see resolveAzureApiVersion).
   */
  apiVersion?: string;
  /**
   * The deployment to call when a request names no model (it is the provider's `defaultModel`). A
   * request's `model` is a deployment name too: `/openai/deployments/{model}/chat/completions`.
   */
  deployment: string;
  /**
   * Whether the deployments serve a reasoning model (o1/o3/o4…, gpt-5…): `max_completion_tokens`
   * and no `temperature`. Deployment names are arbitrary, so by default the family is guessed from
   * the deployment name (`o3-mini`, `gpt-5-chat` are reasoning; anything else gets `max_tokens`).
   */
  reasoningModel?: boolean;
  /** The embeddings deployment used when an embed request names no model. */
  embeddingDeployment?: string;
  /** Total timeout of one call in ms (default 600000), as for OpenAIProvider. */
  timeoutMs?: number;
  /** `stream`: the wait for the first byte in ms (default 60000), as for OpenAIProvider. */
  firstByteTimeoutMs?: number;
  /** `stream`: the longest silence between chunks in ms (default 60000), as for OpenAIProvider. */
  idleTimeoutMs?: number;
  /** What the deployments support, when it is less (e.g. `{ vision: false }`). */
  capabilities?: Partial<ProviderCapabilities>;
}

function env(name: string): string | undefined {
  const value = process.env[name];
  return value && value.trim() !== '' ? value.trim() : undefined;
}

/** `https://x.openai.azure.com/` → `https://x.openai.azure.com/openai` (an endpoint given with `/openai` is kept). */
function baseURLOf(endpoint: string): string {
  const trimmed = endpoint.trim().replace(/\/+$/, '');
  return /\/openai$/.test(trimmed) ? trimmed : `${trimmed}/openai`;
}

/**
 * Azure OpenAI ("Azure-style deployments"): the OpenAI Chat Completions adapter on the SDK's
 * `AzureOpenAI` client, which routes each request by deployment
 * (`{endpoint}/openai/deployments/{deployment}/chat/completions?api-version=…`) and authenticates
 * with the `api-key` header (or an Entra ID bearer token). Request conversion, streaming, errors
 * and timeouts are OpenAIProvider's; errors carry the provider name `azure-openai`.
 */
export class AzureOpenAIProvider extends OpenAIProvider {
  override readonly name: string = AZURE_OPENAI_PROVIDER_NAME;
  override readonly capabilities: ProviderCapabilities;
  /** The resolved endpoint (`https://<resource>.openai.azure.com`). */
  readonly endpoint: string;
  /** The `api-version` sent with every request. */
  readonly apiVersion: string;
  /** The default deployment. */
  readonly deployment: string;
  readonly #reasoningModel: boolean | undefined;
  readonly #embeddingDeployment: string | undefined;

  constructor(options: AzureOpenAIProviderOptions) {
    const name = AZURE_OPENAI_PROVIDER_NAME;
    const deployment = options.deployment?.trim();
    if (!deployment) throw new ProviderConfigurationError(`${name}: deployment is required (the deployment name to call)`, { provider: name });
    const endpoint = options.endpoint?.trim() || env('AZURE_OPENAI_ENDPOINT');
    if (!endpoint) {
      throw new ProviderConfigurationError(`${name}: endpoint missing: set AZURE_OPENAI_ENDPOINT or pass { endpoint } (https://<resource>.openai.azure.com)`, { provider: name });
    }
    if (options.apiKey && options.azureADTokenProvider) {
      throw new ProviderConfigurationError(`${name}: pass either apiKey or azureADTokenProvider, not both`, { provider: name });
    }
    const apiKey = options.azureADTokenProvider ? undefined : options.apiKey || env('AZURE_OPENAI_API_KEY');
    if (!apiKey && !options.azureADTokenProvider) {
      throw new ProviderConfigurationError(`${name}: API key missing: set AZURE_OPENAI_API_KEY or pass { apiKey } (or { azureADTokenProvider } for Entra ID)`, {
        provider: name,
        keyVariables: ['AZURE_OPENAI_API_KEY'],
      });
    }
    const apiVersion = resolveAzureApiVersion(options.apiVersion).version;
    const timeoutMs = options.timeoutMs ?? DEFAULT_OPENAI_TIMEOUT_MS;
    const client = new AzureOpenAI({
      // The base URL is given (not `endpoint`) so an OPENAI_BASE_URL meant for OpenAI neither
      // redirects the client nor makes it refuse the endpoint.
      baseURL: baseURLOf(endpoint),
      apiVersion,
      // No client-level deployment: the SDK then routes each request by its body's `model`.
      // With a token provider the key is null, not absent: an absent key defaults to
      // AZURE_OPENAI_API_KEY, which the SDK then refuses alongside the token provider.
      ...(options.azureADTokenProvider ? { azureADTokenProvider: options.azureADTokenProvider, apiKey: null as unknown as undefined } : { apiKey: apiKey as string }),
      // null keeps the SDK from sending OPENAI_ORG_ID / OPENAI_PROJECT_ID to Azure.
      organization: null,
      project: null,
      maxRetries: 0,
      timeout: sdkTimeout(timeoutMs),
    });
    super({
      client,
      model: deployment,
      timeoutMs,
      ...(options.firstByteTimeoutMs === undefined ? {} : { firstByteTimeoutMs: options.firstByteTimeoutMs }),
      ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
    });
    this.endpoint = endpoint;
    this.apiVersion = apiVersion;
    this.deployment = deployment;
    this.#reasoningModel = options.reasoningModel;
    this.#embeddingDeployment = options.embeddingDeployment;
    this.capabilities = { tools: true, streaming: true, structuredOutput: true, vision: true, embeddings: true, ...options.capabilities };
  }

  protected override chatParams(request: ProviderRequest, model: string): ChatParams {
    return toChatParams(request, model, this.#reasoningModel === undefined ? {} : { reasoning: this.#reasoningModel });
  }

  override async embed(request: EmbedRequest): Promise<EmbedResponse> {
    const model = request.model ?? this.#embeddingDeployment;
    if (!model) {
      throw new ProviderConfigurationError(`${this.name}: embeddings need a deployment: pass { embeddingDeployment } or the request's model`, { provider: this.name });
    }
    return super.embed({ ...request, model });
  }
}
