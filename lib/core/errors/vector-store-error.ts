import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.VectorStoreError');

/**
 * A vector store refused or failed an operation: embeddings of the wrong dimension, a count that
 * does not match the documents, a duplicate id in one batch, or a backend failure (its error is
 * the `cause`).
 */
export class VectorStoreError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'VectorStoreError';
  /** The store's backend: `memory`, `sqlite`, `postgres`, `lancedb`. */
  readonly store: string;

  constructor(message: string, fields: { store: string } & AgentlibErrorOptions) {
    super(message, fields);
    this.store = fields.store;
  }

  /** True when `error` is a VectorStoreError (works across package copies). */
  static override isInstance(error: unknown): error is VectorStoreError {
    return hasMarker(error, marker);
  }
}
