import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.ProviderConfigurationError');

/** A provider is misconfigured (missing key, unknown model, bad base URL). */
export class ProviderConfigurationError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'ProviderConfigurationError';
  /** The provider name. */
  readonly provider: string;
  /** When the problem is a missing API key: the environment variables the key is read from, preferred first. */
  readonly keyVariables: readonly string[] | undefined;

  constructor(message: string, fields: { provider: string; keyVariables?: readonly string[] } & AgentlibErrorOptions) {
    super(message, fields);
    this.provider = fields.provider;
    this.keyVariables = fields.keyVariables === undefined ? undefined : [...fields.keyVariables];
  }

  /** True when `error` is a ProviderConfigurationError (works across package copies). */
  static override isInstance(error: unknown): error is ProviderConfigurationError {
    return hasMarker(error, marker);
  }
}
