import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.StructuredOutputError');

/** The model did not produce valid structured output within the allowed retries. */
export class StructuredOutputError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'StructuredOutputError';
  /** The last raw text the model produced. */
  readonly text: string;
  /** The validation problems of the last attempt. */
  readonly issues: readonly string[];

  constructor(fields: { text: string; issues: readonly string[] } & AgentlibErrorOptions) {
    super(`Structured output failed validation: ${fields.issues.join('; ')}`, fields);
    this.text = fields.text;
    this.issues = fields.issues;
  }

  /** True when `error` is a StructuredOutputError (works across package copies). */
  static override isInstance(error: unknown): error is StructuredOutputError {
    return hasMarker(error, marker);
  }
}
