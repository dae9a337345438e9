import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Argv } from 'yargs';
import type { CommandDescriptor } from '../../cli/command-descriptor.js';
import { createProgram } from '../../cli/program.js';

// yargs renders the whole help text each time it starts a command handler, in case the handler
// shows help later; agentlib's handlers never do, so the program turns that off (it cost ~60 ms
// of every `agentlib run`).

/** yargs' usage instance (internal API, not in its typings): whether it holds a rendered help text. */
function hasCachedHelp(program: Argv<unknown>): boolean {
  const internals = program as unknown as { getInternalMethods(): { getUsageInstance(): { hasCachedHelpMessage(): boolean } } };
  return internals.getInternalMethods().getUsageInstance().hasCachedHelpMessage();
}

describe('createProgram', () => {
  const command: CommandDescriptor = {
    name: 'hello',
    positionals: '[name]',
    description: 'say hello (test command)',
    builder: (yargs) => yargs.positional('name', { type: 'string', describe: 'who to greet' }).option('loud', { type: 'boolean', describe: 'shout' }),
    load: () => Promise.resolve({ run: () => undefined }),
  };

  test('starting a command renders no help text', async () => {
    const ran: unknown[] = [];
    const program = createProgram({
      argv: ['hello', 'world'],
      version: '0.0.0',
      commands: [command],
      columns: 80,
      runCommand: (_command, args) => {
        ran.push(args.name);
        return Promise.resolve();
      },
    });
    await program.parseAsync(['hello', 'world', '--loud']);
    assert.deepEqual(ran, ['world']);
    assert.equal(hasCachedHelp(program), false);
  });

  test('--help still renders the command help', async () => {
    let output = '';
    const program = createProgram({ argv: ['hello', '--help'], version: '0.0.0', commands: [command], columns: 80, runCommand: () => Promise.resolve() });
    await program.parseAsync(['hello', '--help'], {}, (_error, _args, text) => {
      output += text;
    });
    assert.match(output, /who to greet/);
    assert.match(output, /--loud\s+shout/);
  });
});
