import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.ToolValidationError');

/** One problem found while validating a tool definition or a tool call's arguments. */
export interface ValidationIssue {
  /** Path of the offending value (`[]` for the whole object). */
  path: readonly (string | number)[];
  /** What is wrong. */
  message: string;
}

/**
 * A tool definition or a tool call's arguments are invalid. When an unknown parameter is close
 * to a known one, `suggestion` names it ("did you mean …?") and the message says so.
 */
export class ToolValidationError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'ToolValidationError';
  /** The tool concerned, when known. */
  readonly toolName: string | undefined;
  /** Every problem found. */
  readonly issues: readonly ValidationIssue[];
  /** The closest known parameter name for a mistyped one. */
  readonly suggestion: string | undefined;

  constructor(
    message: string,
    fields: { toolName?: string; issues?: readonly ValidationIssue[]; suggestion?: string } & AgentlibErrorOptions = {},
  ) {
    super(message, fields);
    this.toolName = fields.toolName;
    this.issues = fields.issues ?? [];
    this.suggestion = fields.suggestion;
  }

  /** True when `error` is a ToolValidationError (works across package copies). */
  static override isInstance(error: unknown): error is ToolValidationError {
    return hasMarker(error, marker);
  }
}
