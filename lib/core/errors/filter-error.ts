import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.FilterError');

/** Why a metadata filter was refused. */
export type FilterErrorKind = 'unsupported-operator' | 'invalid-key' | 'invalid-value';

/**
 * A metadata filter of a vector store or keyword index was refused: an operator the store cannot
 * evaluate (never "matches nothing" silently), a key that is not a plain field name, or a value of
 * the wrong shape (`$in` without an array, an object where a scalar belongs).
 */
export class FilterError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'FilterError';
  readonly kind: FilterErrorKind;
  /** The operator or key at fault. */
  readonly at: string;

  constructor(message: string, fields: { kind: FilterErrorKind; at: string } & AgentlibErrorOptions) {
    super(message, fields);
    this.kind = fields.kind;
    this.at = fields.at;
  }

  /** True when `error` is a FilterError (works across package copies). */
  static override isInstance(error: unknown): error is FilterError {
    return hasMarker(error, marker);
  }
}
