import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.CheckpointNotFoundError');

/** A graph checkpoint (or a thread's checkpoints) is not in the checkpoint store. */
export class CheckpointNotFoundError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'CheckpointNotFoundError';
  /** The checkpoint id or thread id looked for. */
  readonly id: string;

  constructor(what: 'checkpoint' | 'thread', id: string, options: AgentlibErrorOptions = {}) {
    super(what === 'thread' ? `thread "${id}" has no checkpoints in the checkpoint store` : `checkpoint "${id}" is not in the checkpoint store`, options);
    this.id = id;
  }

  /** True when `error` is a CheckpointNotFoundError (works across package copies). */
  static override isInstance(error: unknown): error is CheckpointNotFoundError {
    return hasMarker(error, marker);
  }
}
