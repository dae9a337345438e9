import yargs, { type Argv } from 'yargs';
import { closestMatch } from '../lib/core/suggest.js';
import type { CommandArguments, CommandDescriptor, GlobalArguments } from './command-descriptor.js';
import { epilogue, programExamples, USAGE } from './help.js';
import { UsageError } from './usage-error.js';

/** What the program needs to know to parse a command line. */
export interface ProgramOptions {
  /** The raw arguments (used to name an unknown command in messages). */
  argv: readonly string[];
  /** agentlib's version, for `--version`. */
  version: string;
  /** The commands to register (lazily). */
  commands: readonly CommandDescriptor[];
  /** Terminal width for help text. */
  columns: number | undefined;
  /** Runs a command once its arguments are parsed and validated. */
  runCommand: (command: CommandDescriptor, args: CommandArguments) => Promise<void>;
}

/**
 * The yargs program: global flags, help with examples and environment variables, strict parsing
 * with typo suggestions, and one lazily loaded command per descriptor. Parse errors are thrown as
 * UsageError (exit code 2); the caller prints them.
 */
export function createProgram(options: ProgramOptions): Argv<GlobalArguments> {
  const program = yargs()
    .scriptName('agentlib')
    .locale('en')
    .usage(USAGE)
    .option('color', {
      type: 'boolean',
      default: true,
      describe: 'colour output; --no-color (or NO_COLOR=1) turns it off',
    })
    .option('debug', { type: 'boolean', default: false, describe: 'print stack traces for errors' })
    .group(['color', 'debug', 'help', 'version'], 'Global options:')
    .help('help', 'show help')
    .alias('help', 'h')
    .version('version', 'show the version number', options.version)
    .completion('completion', 'print a bash/zsh completion script')
    .strict()
    .strictCommands()
    .recommendCommands()
    .demandCommand(1, 'Specify a command.')
    .wrap(Math.min(100, options.columns ?? 80))
    .epilogue(epilogue())
    .fail((message: string | undefined, error: Error | undefined) => {
      if (error !== undefined && error.name !== 'YError') throw error;
      throw usageError(message ?? error?.message ?? 'invalid command line', options);
    });
  for (const [line, meaning] of programExamples(options.commands)) program.example(line, meaning);
  for (const command of options.commands) {
    program.command({
      command: command.positionals === undefined ? command.name : `${command.name} ${command.positionals}`,
      aliases: [...(command.aliases ?? [])],
      describe: command.description,
      builder: (yargs: Argv<GlobalArguments>) => command.builder?.(yargs) ?? yargs,
      handler: (args) => options.runCommand(command, args as unknown as CommandArguments),
    });
  }
  return program;
}

/** Turns yargs' messages about unknown commands into one message with a did-you-mean. */
function usageError(message: string, options: ProgramOptions): UsageError {
  const recommended = /^Did you mean (.+)\?$/.exec(message)?.[1];
  if (recommended !== undefined || /^Unknown commands?: /.test(message)) {
    return unknownCommandError(firstWord(options.argv) ?? '', options.commands, recommended);
  }
  return new UsageError(message);
}

/**
 * The error for a word that is not a command, suggesting the closest command name or alias
 * (yargs' recommendation when it has one).
 */
function unknownCommandError(word: string, commands: readonly CommandDescriptor[], recommended?: string): UsageError {
  const names = commands.flatMap((command) => [command.name, ...(command.aliases ?? [])]);
  const suggestion = recommended ?? closestMatch(word, names);
  const hint = suggestion === undefined ? '' : ` Did you mean "${suggestion}"?`;
  return new UsageError(`Unknown command "${word}".${hint}`, suggestion === undefined ? {} : { suggestion });
}

/** The first non-option word of a command line (the command), if any. */
function firstWord(argv: readonly string[]): string | undefined {
  for (const arg of argv) {
    if (arg === '--') return undefined;
    if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}
