import { closestMatch } from '../lib/core/suggest.js';
import type { CommandDescriptor } from './command-descriptor.js';
import { UsageError } from './usage-error.js';

/** yargs' own command, registered by `.completion()`. */
const BUILT_IN_COMMANDS = ['completion'] as const;

/** Every word that runs a command: names, aliases and yargs' built-in `completion`. */
export function commandWords(commands: readonly CommandDescriptor[]): string[] {
  return [...commands.flatMap((command) => [command.name, ...(command.aliases ?? [])]), ...BUILT_IN_COMMANDS];
}

/** The first non-option word of a command line (the command), if any. */
export function firstWord(argv: readonly string[]): string | undefined {
  for (const arg of argv) {
    if (arg === '--') return undefined;
    if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

/** The command `argv` runs (its name, aliases resolved), or undefined for none or an unknown word. */
export function commandOf(argv: readonly string[], commands: readonly CommandDescriptor[]): string | undefined {
  const word = firstWord(argv);
  if (word === undefined) return undefined;
  return commands.find((command) => command.name === word || (command.aliases ?? []).includes(word))?.name;
}

/**
 * The error for a word that is not a command: the closest command name or alias when one is close
 * enough to be a typo, else the list of commands.
 */
export function unknownCommandError(word: string, commands: readonly CommandDescriptor[]): UsageError {
  const words = commandWords(commands);
  const suggestion = closestMatch(word, words);
  const names = commands.map((command) => command.name).join(', ');
  const hint = suggestion !== undefined ? ` Did you mean "${suggestion}"?` : names === '' ? '' : ` The commands are: ${names}.`;
  return new UsageError(`Unknown command "${word}".${hint}`, suggestion === undefined ? {} : { suggestion });
}

/**
 * Refuses a command line whose first word is not a command before yargs sees it, so
 * `agentlib eval --help` fails like `agentlib eval` (yargs would print the global help and exit 0).
 */
export function assertKnownCommand(argv: readonly string[], commands: readonly CommandDescriptor[]): void {
  // A shell asking for completions passes the partial word it has so far.
  if (argv.includes('--get-yargs-completions')) return;
  const word = firstWord(argv);
  if (word !== undefined && !commandWords(commands).includes(word)) throw unknownCommandError(word, commands);
}

/** What the parser knows of the options in scope (the command's and the global ones). */
export interface KnownOptions {
  /** Option names (`replay`, `max-iterations`, and one-letter aliases). */
  keys: readonly string[];
}

/**
 * yargs' "Unknown argument(s): a, b" for options, with a did-you-mean among the options in scope:
 * `Unknown option --repaly. Did you mean --replay?`. Undefined when none of the unknown words was
 * written as an option (extra positionals keep yargs' message).
 */
export function unknownOptionError(message: string, argv: readonly string[], known: KnownOptions | undefined): UsageError | undefined {
  const listed = /^Unknown arguments?: (.+)$/.exec(message)?.[1];
  if (listed === undefined) return undefined;
  const written = new Set(argv.filter((arg) => arg.startsWith('-')).map(optionName));
  const unknown = listed.split(', ').filter((word) => written.has(word));
  const first = unknown[0];
  if (first === undefined) return undefined;
  const candidates = (known?.keys ?? []).filter((key) => key.length > 1);
  const parts = unknown.map((word) => {
    const suggestion = closestMatch(word, candidates);
    return { text: dashed(word), suggestion: suggestion === undefined ? undefined : dashed(suggestion) };
  });
  const head = parts.length === 1 ? `Unknown option ${parts[0]?.text}.` : `Unknown options ${parts.map((part) => part.text).join(', ')}.`;
  const hints = parts.filter((part) => part.suggestion !== undefined).map((part) => (parts.length === 1 ? `Did you mean ${part.suggestion}?` : `${part.text}: did you mean ${part.suggestion}?`));
  const suggestion = parts.find((part) => part.suggestion !== undefined)?.suggestion;
  return new UsageError([head, ...hints].join(' '), suggestion === undefined ? {} : { suggestion });
}

/** `--name=value` / `-n` → `name` / `n`. */
function optionName(arg: string): string {
  return arg.replace(/^-+/, '').replace(/=.*$/, '');
}

function dashed(name: string): string {
  return name.length === 1 ? `-${name}` : `--${name}`;
}
