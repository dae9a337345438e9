import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.TraceFormatError');

/** A stored trace (JSON or JSONL) is malformed or has an unsupported version. */
export class TraceFormatError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'TraceFormatError';
  /** 1-based line of the JSONL input, when the error is tied to one. */
  readonly line: number | undefined;

  constructor(message: string, fields: { line?: number } & AgentlibErrorOptions = {}) {
    super(fields.line === undefined ? message : `trace line ${fields.line}: ${message}`, fields);
    this.line = fields.line;
  }

  /** True when `error` is a TraceFormatError (works across package copies). */
  static override isInstance(error: unknown): error is TraceFormatError {
    return hasMarker(error, marker);
  }
}
