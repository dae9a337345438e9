import { AgentlibError, hasMarker, type AgentlibErrorOptions } from './agentlib-error.js';

const marker = Symbol.for('agentlib.error.CassetteError');

/** What went wrong with a cassette. */
export type CassetteErrorKind = 'format' | 'mismatch' | 'exhausted' | 'io';

/** Fields of a CassetteError. */
export interface CassetteErrorFields extends AgentlibErrorOptions {
  kind: CassetteErrorKind;
  /** The cassette file, when there is one. */
  file?: string;
  /** 1-based line of the cassette (format errors). */
  line?: number;
  /** Path of the first difference between the live and the recorded request (mismatch). */
  path?: string;
}

/**
 * A record/replay cassette could not be read or written, or a replayed run made a provider call
 * that the cassette does not hold (`mismatch`) or more calls than it holds (`exhausted`).
 */
export class CassetteError extends AgentlibError {
  private readonly [marker] = true;
  override readonly name: string = 'CassetteError';
  readonly kind: CassetteErrorKind;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly path: string | undefined;

  constructor(message: string, fields: CassetteErrorFields) {
    super(message, fields);
    this.kind = fields.kind;
    this.file = fields.file;
    this.line = fields.line;
    this.path = fields.path;
  }

  /** True when `error` is a CassetteError (works across package copies). */
  static override isInstance(error: unknown): error is CassetteError {
    return hasMarker(error, marker);
  }
}
