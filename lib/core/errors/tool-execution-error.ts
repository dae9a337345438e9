import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.ToolExecutionError');

/** A tool threw while running. */
export class ToolExecutionError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'ToolExecutionError';
  /** The tool that failed. */
  readonly toolName: string;
  /** The call id, when the failure happened inside a run. */
  readonly callId: string | undefined;

  constructor(message: string, fields: { toolName: string; callId?: string } & AgentlibErrorOptions) {
    super(message, fields);
    this.toolName = fields.toolName;
    this.callId = fields.callId;
  }

  /** True when `error` is a ToolExecutionError (works across package copies). */
  static override isInstance(error: unknown): error is ToolExecutionError {
    return hasMarker(error, marker);
  }
}
