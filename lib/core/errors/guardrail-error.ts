import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.GuardrailError');

/** A guardrail with action `block` fired. */
export class GuardrailError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'GuardrailError';
  /** Name of the guardrail that fired. */
  readonly guardrail: string;
  /** Why it fired. */
  readonly reason: string;
  /** What was checked: the user's input, the final answer, a tool call's arguments or a tool's result. */
  readonly stage: 'input' | 'output' | 'tool-arguments' | 'tool-result';

  constructor(fields: { guardrail: string; reason: string; stage: 'input' | 'output' | 'tool-arguments' | 'tool-result'; message?: string } & AgentlibErrorOptions) {
    super(fields.message ?? `Guardrail '${fields.guardrail}' blocked the ${fields.stage}: ${fields.reason}`, fields);
    this.guardrail = fields.guardrail;
    this.reason = fields.reason;
    this.stage = fields.stage;
  }

  /** True when `error` is a GuardrailError (works across package copies). */
  static override isInstance(error: unknown): error is GuardrailError {
    return hasMarker(error, marker);
  }
}
