import type { Argv } from 'yargs';
import type { CliIO } from './output.js';

/** Options every command accepts. */
export interface GlobalArguments {
  /** False with `--no-color` (the launcher has already set `FORCE_COLOR=0`). */
  color: boolean;
  /** Print stack traces for errors. */
  debug: boolean;
}

/** Parsed arguments handed to a command: the globals, the command's own options and positionals. */
export type CommandArguments = Readonly<GlobalArguments & Record<string, unknown> & { _: readonly (string | number)[] }>;

/** What a running command gets from the CLI besides its arguments. */
export interface CommandContext {
  /** Streams and environment: data to `io.stdout`, logs to `io.stderr`. */
  io: CliIO;
  /** Aborted on the first Ctrl+C; long-running commands pass it to agent runs. */
  signal: AbortSignal;
  /** agentlib's version. */
  version: string;
  /** Whether colour output is allowed on stdout. */
  color: boolean;
}

/**
 * The module behind a command (`commands/<name>.ts`), loaded only when that command runs. `run`
 * returns the exit code (default 0) or throws; thrown errors are mapped by `cli/errors.ts`.
 */
export interface CommandImplementation {
  run(args: CommandArguments, context: CommandContext): Promise<number | void> | number | void;
}

/**
 * A command as the CLI knows it before loading it: enough for `--help`, argument parsing and
 * completion. Heavy dependencies live in the module that `load` imports, never here.
 */
export interface CommandDescriptor {
  /** The command word (`run`). */
  name: string;
  /** Positional arguments in yargs syntax (`[prompt]`, `<suite>`). */
  positionals?: string;
  /** One line for the command list. */
  description: string;
  /** Other words that run the command. */
  aliases?: readonly string[];
  /** `[command line, what it does]` pairs shown under Examples. */
  examples?: readonly (readonly [string, string])[];
  /** Declares the command's options and positionals (no imports of heavy modules here). */
  builder?: (yargs: Argv<GlobalArguments>) => Argv<unknown>;
  /** Imports the implementation: `() => import('../commands/run.js')`. */
  load: () => Promise<CommandImplementation>;
}
