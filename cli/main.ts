import { CancellationError } from '../lib/core/errors/cancellation-error.js';
import type { CommandContext, CommandDescriptor } from './command-descriptor.js';
import { commandDescriptors } from './commands.js';
import { exitCodeFor, formatError } from './errors.js';
import { ExitCode } from './exit-codes.js';
import { colorEnabled, processIO, type CliIO } from './output.js';
import { loadProgram } from './load-program.js';
import { assertKnownCommand, commandOf } from './unknown-input.js';
import { packageVersion } from './version.js';

/** Options of `main`, for embedding and tests. */
export interface MainOptions {
  /** Streams and environment. Default: the process's. */
  io?: CliIO;
  /** The commands. Default: every agentlib command (`cli/commands.ts`). */
  commands?: readonly CommandDescriptor[];
  /**
   * Handle Ctrl+C: the first SIGINT aborts the command's signal, a second exits with 130.
   * Default: true when `io` is the process's.
   */
  handleSignals?: boolean;
}

/**
 * Runs the agentlib CLI on `argv` (without the node and script paths) and resolves to the exit
 * code. It never throws and never calls `process.exit` (except on a second Ctrl+C).
 */
export async function main(argv: readonly string[], options: MainOptions = {}): Promise<number> {
  const io = options.io ?? processIO();
  const commands = options.commands ?? commandDescriptors;
  const controller = new AbortController();
  const removeSignalHandler = (options.handleSignals ?? options.io === undefined) ? handleInterrupts(controller, io) : () => undefined;
  const state = { exitCode: ExitCode.OK as number, debug: argv.includes('--debug') };
  try {
    assertKnownCommand(argv, commands);
    const { createProgram } = await loadProgram();
    const program = createProgram({
      argv,
      version: packageVersion(),
      commands,
      columns: io.stdout.columns,
      runCommand: async (command, args) => {
        state.debug = args.debug;
        const context: CommandContext = {
          io,
          signal: controller.signal,
          version: packageVersion(),
          color: args.color && colorEnabled(io.stdout, io.env),
        };
        const implementation = await command.load();
        const code = await implementation.run(args, context);
        state.exitCode = typeof code === 'number' ? code : ExitCode.OK;
      },
    });
    let output = '';
    await program.parseAsync([...argv], {}, (_error, _args, text) => {
      output += text;
    });
    if (output !== '') io.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
    if (controller.signal.aborted && state.exitCode === ExitCode.OK) return ExitCode.INTERRUPTED;
    return state.exitCode;
  } catch (error) {
    const command = commandOf(argv, commands);
    io.stderr.write(formatError(error, { debug: state.debug, ...(command === undefined ? {} : { command }) }));
    return exitCodeFor(error);
  } finally {
    removeSignalHandler();
  }
}

/** First Ctrl+C aborts the running command; the second exits at once. Returns the remover. */
function handleInterrupts(controller: AbortController, io: CliIO): () => void {
  const onInterrupt = (): void => {
    if (controller.signal.aborted) process.exit(ExitCode.INTERRUPTED);
    // Aborted first: the command's listeners clear what they show (a spinner's line) before the notice.
    controller.abort(new CancellationError({ reason: 'SIGINT', message: 'Interrupted (Ctrl+C)' }));
    io.stderr.write('\nInterrupted; stopping (press Ctrl+C again to quit now).\n');
  };
  process.on('SIGINT', onInterrupt);
  return () => {
    process.off('SIGINT', onInterrupt);
  };
}
