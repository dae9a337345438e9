/**
 * The contract every module in `commands/` implements: export `run(args, context)` returning the
 * exit code (or nothing for 0). `cli/commands.ts` lists each command as a lazy descriptor whose
 * `load()` imports the module only when that command runs, so heavy imports belong here, in the
 * command modules, never in `cli/`.
 *
 * @example
 * // commands/hello.ts
 * import type { CommandArguments, CommandContext } from './command-module.js';
 * export async function run(args: CommandArguments, context: CommandContext): Promise<number> {
 *   context.io.stdout.write(`hello ${String(args.name)}\n`);
 *   return 0;
 * }
 */
export type { CommandArguments, CommandContext, CommandImplementation } from '../cli/command-descriptor.js';
