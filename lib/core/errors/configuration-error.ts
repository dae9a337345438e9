import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.ConfigurationError');

/** A configuration value is invalid (agent config, YAML, CLI flags). */
export class ConfigurationError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'ConfigurationError';
  /** The offending key, dotted (`budget.maxCostUsd`). */
  readonly key: string | undefined;
  /** A did-you-mean suggestion, when one applies. */
  readonly suggestion: string | undefined;

  constructor(message: string, fields: { key?: string; suggestion?: string } & AgentlibErrorOptions = {}) {
    super(message, fields);
    this.key = fields.key;
    this.suggestion = fields.suggestion;
  }

  /** True when `error` is a ConfigurationError (works across package copies). */
  static override isInstance(error: unknown): error is ConfigurationError {
    return hasMarker(error, marker);
  }
}
