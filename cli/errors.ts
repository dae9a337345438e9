import { inspect } from 'node:util';
import { AgentlibError } from '../lib/core/errors/agentlib-error.js';
import { CancellationError } from '../lib/core/errors/cancellation-error.js';
import { CassetteError } from '../lib/core/errors/cassette-error.js';
import { ConfigurationError } from '../lib/core/errors/configuration-error.js';
import { ProviderConfigurationError } from '../lib/core/errors/provider-configuration-error.js';
import { ProviderError } from '../lib/core/errors/provider-error.js';
import { SessionNotFoundError } from '../lib/core/errors/session-not-found-error.js';
import { ToolValidationError } from '../lib/core/errors/tool-validation-error.js';
import { ExitCode } from './exit-codes.js';
import { missingKeyAdvice } from './missing-key-advice.js';
import { UsageError } from './usage-error.js';

/**
 * The exit code for an error that ended a command:
 * usage and configuration problems → 2, cancellation → 130, everything else
 * (provider failures, tool crashes, bugs) → 3.
 */
export function exitCodeFor(error: unknown): ExitCode {
  if (isUsageProblem(error)) return ExitCode.USAGE;
  if (CancellationError.isInstance(error) || isAbortError(error)) return ExitCode.INTERRUPTED;
  return ExitCode.RUNTIME;
}

/** Errors the user fixes by changing the command line or configuration. */
function isUsageProblem(error: unknown): boolean {
  return (
    UsageError.isInstance(error) ||
    ConfigurationError.isInstance(error) ||
    ProviderConfigurationError.isInstance(error) ||
    ToolValidationError.isInstance(error) ||
    SessionNotFoundError.isInstance(error) ||
    // a missing or malformed cassette is a command-line problem; a run that strays from it is not
    (CassetteError.isInstance(error) && (error.kind === 'io' || error.kind === 'format'))
  );
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** Options of formatError. */
export interface FormatErrorOptions {
  /** The program name used in hints. Default `agentlib`. */
  program?: string;
  /** Include stack traces and the cause chain. */
  debug?: boolean;
  /** The command that ran: a usage error points to its own `--help`. */
  command?: string;
}

/**
 * Renders an error for stderr: `agentlib: <message>` with provider details, a help hint for usage
 * errors (the command's own `--help` when `command` is given) and, with `debug`, stack traces of the error and its causes.
 */
export function formatError(error: unknown, options: FormatErrorOptions = {}): string {
  const program = options.program ?? 'agentlib';
  const lines = [`${program}: ${describe(error)}`];
  lines.push(...missingKeyAdvice(error, program));
  if (UsageError.isInstance(error)) lines.push(`Run "${[program, options.command, '--help'].filter((word) => word !== undefined).join(' ')}" for usage.`);
  else if (!options.debug && error instanceof Error && exitCodeFor(error) === ExitCode.RUNTIME && !AgentlibError.isInstance(error)) {
    lines.push('Run again with --debug for a stack trace.');
  }
  if (options.debug) {
    let current: unknown = error;
    for (let depth = 0; current !== undefined && depth < 5; depth++) {
      if (current instanceof Error && current.stack !== undefined) lines.push(depth === 0 ? current.stack : `Caused by: ${current.stack}`);
      else if (depth > 0) lines.push(`Caused by: ${inspect(current)}`);
      current = current instanceof Error ? current.cause : undefined;
    }
  }
  return `${lines.join('\n')}\n`;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return typeof error === 'string' ? error : inspect(error);
  if (UsageError.isInstance(error) || CancellationError.isInstance(error)) return error.message;
  if (ProviderError.isInstance(error)) {
    const details = [
      `provider ${error.provider}`,
      error.model === undefined ? undefined : `model ${error.model}`,
      error.status === undefined ? undefined : `status ${error.status}`,
      error.requestId === undefined ? undefined : `request ${error.requestId}`,
    ].filter((part) => part !== undefined);
    return `${error.name}: ${error.message} (${details.join(', ')})`;
  }
  return error.name === 'Error' ? error.message : `${error.name}: ${error.message}`;
}
