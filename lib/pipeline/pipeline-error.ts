import { AgentlibError, hasMarker, type AgentlibErrorOptions } from '../core/errors/agentlib-error.js';

const marker = Symbol.for('agentlib.error.PipelineError');

/** A pipeline step failed, or a pipeline was built or routed wrongly (an unknown branch). */
export class PipelineError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'PipelineError';
  /** The step that failed, when known. */
  readonly step: string | undefined;

  constructor(message: string, fields: { step?: string } & AgentlibErrorOptions = {}) {
    super(message, fields);
    this.step = fields.step;
  }

  /** True when `error` is a PipelineError (works across package copies). */
  static override isInstance(error: unknown): error is PipelineError {
    return hasMarker(error, marker);
  }
}
