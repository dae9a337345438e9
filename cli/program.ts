import yargs, { type Argv } from 'yargs';
import type { CommandArguments, CommandDescriptor, GlobalArguments } from './command-descriptor.js';
import { epilogue, programExamples, USAGE } from './help.js';
import { commandOf, firstWord, unknownCommandError, unknownOptionError, type KnownOptions } from './unknown-input.js';
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
  // The options in scope when parsing fails: the global ones, or the command's once its builder ran.
  let known: KnownOptions | undefined;
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
      known ??= optionsOf(program);
      throw usageError(message ?? error?.message ?? 'invalid command line', options, known);
    });
  skipHelpCache(program);
  for (const [line, meaning] of programExamples(options.commands)) program.example(line, meaning);
  for (const command of options.commands) {
    program.command({
      command: command.positionals === undefined ? command.name : `${command.name} ${command.positionals}`,
      aliases: [...(command.aliases ?? [])],
      describe: command.description,
      builder: (yargs: Argv<GlobalArguments>) => {
        const built = command.builder?.(yargs) ?? yargs;
        known = optionsOf(built);
        return built;
      },
      handler: (args) => options.runCommand(command, args as unknown as CommandArguments),
    });
  }
  return program;
}

/**
 * Stops yargs from rendering the whole help text each time it starts a command (it caches the
 * text in case the handler asks for help later; ~60 ms of string-width and wrap-ansi work on every
 * `agentlib run`). No handler of ours shows yargs' help, and `--help` and usage errors render their
 * text when they need it, so the cache is never read.
 */
function skipHelpCache(program: Argv<unknown>): void {
  const internals = program as unknown as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } };
  const usage = internals.getInternalMethods?.call(program).getUsageInstance?.();
  if (usage !== undefined && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
}

/** Turns yargs' messages about unknown commands and options into one message with a did-you-mean. */
function usageError(message: string, options: ProgramOptions, known: KnownOptions | undefined): UsageError {
  const recommended = /^Did you mean (.+)\?$/.exec(message)?.[1];
  const extra = /^Unknown commands?: (.+)$/.exec(message)?.[1];
  if (recommended !== undefined || extra !== undefined) {
    const command = commandOf(options.argv, options.commands);
    // After a known command, yargs calls a word it cannot place an unknown command: it is one argument too many.
    if (command !== undefined && extra !== undefined) return new UsageError(`Too many arguments for "${command}": ${extra}.`);
    return unknownCommandError(firstWord(options.argv) ?? '', options.commands);
  }
  return unknownOptionError(message, options.argv, known) ?? new UsageError(message);
}

/** The option names a yargs instance knows (yargs' `getOptions()`, not in its typings). */
function optionsOf(yargs: Argv<unknown>): KnownOptions {
  const getOptions = (yargs as unknown as { getOptions?: () => { key?: Record<string, unknown> } }).getOptions;
  return { keys: Object.keys(getOptions?.call(yargs).key ?? {}) };
}
