import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.BudgetExceededError');

/** Which budget ran out. */
export type BudgetKind = 'tokens' | 'cost';

/** A run exceeded `maxTotalTokens` or `maxCostUsd`. */
export class BudgetExceededError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'BudgetExceededError';
  /** Which budget ran out. */
  readonly kind: BudgetKind;
  /** The configured limit (tokens or USD). */
  readonly limit: number;
  /** The amount used when the check fired. */
  readonly actual: number;

  constructor(fields: { kind: BudgetKind; limit: number; actual: number } & AgentlibErrorOptions) {
    super(`Budget exceeded: ${fields.kind === 'cost' ? `cost $${fields.actual.toFixed(6)} > $${fields.limit}` : `${fields.actual} tokens > ${fields.limit}`}`, fields);
    this.kind = fields.kind;
    this.limit = fields.limit;
    this.actual = fields.actual;
  }

  /** True when `error` is a BudgetExceededError (works across package copies). */
  static override isInstance(error: unknown): error is BudgetExceededError {
    return hasMarker(error, marker);
  }
}
