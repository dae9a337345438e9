import type { AgentlibErrorOptions } from './agentlib-error.js';
import { hasMarker } from './agentlib-error.js';
import { ConfigurationError } from './configuration-error.js';

const marker = Symbol.for('agentlib.error.ConfigFileError');

/** One problem found in a configuration file, with its position (1-based line and column). */
export interface ConfigIssue {
  /** Dotted path of the offending key or value (`retry.max_retries`, `tools[2]`); `''` for the document. */
  path: string;
  line: number;
  col: number;
  /** What is wrong. */
  message: string;
  /** The likely intended value or key ("did you mean …?"), when one is close. */
  suggestion?: string;
  /** Free-text advice on how to fix it. */
  hint?: string;
}

/** `agent.yaml:7:3: unknown key "max_iteration" under the top level — did you mean "max_iterations"?` */
export function formatConfigIssue(source: string, issue: ConfigIssue): string {
  const did = issue.suggestion === undefined ? '' : ` — did you mean "${issue.suggestion}"?`;
  const hint = issue.hint === undefined ? '' : ` (${issue.hint})`;
  return `${source}:${issue.line}:${issue.col}: ${issue.message}${did}${hint}`;
}

/**
 * A configuration file (agent YAML) is invalid. Carries every problem found in one pass, each with
 * its position; the message has one `file:line:col: …` line per problem.
 */
export class ConfigFileError extends ConfigurationError {
  private readonly [marker] = true;
  override readonly name: string = 'ConfigFileError';
  /** The file name (or label) the positions refer to. */
  readonly source: string;
  /** Every problem found, in document order. */
  readonly issues: readonly ConfigIssue[];

  constructor(source: string, issues: readonly ConfigIssue[], options: AgentlibErrorOptions = {}) {
    const first = issues[0];
    super(issues.map((issue) => formatConfigIssue(source, issue)).join('\n') || `${source}: invalid configuration`, {
      ...options,
      ...(first === undefined || first.path === '' ? {} : { key: first.path }),
      ...(first?.suggestion === undefined ? {} : { suggestion: first.suggestion }),
    });
    this.source = source;
    this.issues = issues;
  }

  /** True when `error` is a ConfigFileError (works across package copies). */
  static override isInstance(error: unknown): error is ConfigFileError {
    return hasMarker(error, marker);
  }
}
