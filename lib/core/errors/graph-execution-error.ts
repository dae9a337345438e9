import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.GraphExecutionError');

/** A graph run failed. */
export class GraphExecutionError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'GraphExecutionError';
  /** The node that failed, when known. */
  readonly node: string | undefined;

  constructor(message: string, fields: { node?: string } & AgentlibErrorOptions = {}) {
    super(message, fields);
    this.node = fields.node;
  }

  /** True when `error` is a GraphExecutionError (works across package copies). */
  static override isInstance(error: unknown): error is GraphExecutionError {
    return hasMarker(error, marker);
  }
}
