import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CommandArguments, CommandContext, CommandDescriptor, CommandImplementation } from '../../cli/command-descriptor.js';
import { main } from '../../cli/main.js';
import { packageVersion } from '../../cli/version.js';
import { CancellationError } from '../../lib/core/errors/cancellation-error.js';
import { ConfigurationError } from '../../lib/core/errors/configuration-error.js';
import { ProviderError } from '../../lib/core/errors/provider-error.js';
import { UsageError } from '../../cli/usage-error.js';
import { memoryIO } from '../support/cli-io.js';

interface Call {
  args: CommandArguments;
  context: CommandContext;
}

/** A test-only command whose module records its calls; `loads` counts imports. */
function helloCommand(run: CommandImplementation['run'] = () => undefined) {
  const calls: Call[] = [];
  const state = { loads: 0 };
  const descriptor: CommandDescriptor = {
    name: 'hello',
    positionals: '[name]',
    description: 'say hello (test command)',
    aliases: ['hi'],
    examples: [['$0 hello world', 'greet the world']],
    builder: (yargs) => yargs.positional('name', { type: 'string', describe: 'who to greet' }).option('loud', { type: 'boolean', describe: 'shout' }),
    load: async () => {
      state.loads++;
      return {
        run: (args, context) => {
          calls.push({ args, context });
          return run(args, context);
        },
      };
    },
  };
  return { descriptor, calls, state };
}

describe('cli main: lazy commands', () => {
  test('--help lists the command and its examples without loading it', async () => {
    const hello = helloCommand();
    const io = memoryIO();
    assert.equal(await main(['--help'], { io, commands: [hello.descriptor] }), 0);
    assert.match(io.out(), /agentlib hello \[name\]\s+say hello \(test command\)/);
    assert.match(io.out(), /agentlib hello world\s+greet the world/);
    assert.equal(hello.state.loads, 0);
    assert.equal(io.err(), '');
  });

  test('command --help shows the builder\'s options without loading the module', async () => {
    const hello = helloCommand();
    const io = memoryIO();
    assert.equal(await main(['hello', '--help'], { io, commands: [hello.descriptor] }), 0);
    assert.match(io.out(), /--loud\s+shout/);
    assert.match(io.out(), /name\s+who to greet/);
    assert.equal(hello.state.loads, 0);
  });

  test('running the command loads its module once and passes arguments and context', async () => {
    const hello = helloCommand();
    const io = memoryIO();
    assert.equal(await main(['hello', 'world', '--loud'], { io, commands: [hello.descriptor] }), 0);
    assert.equal(hello.state.loads, 1);
    const [call] = hello.calls;
    assert.equal(call?.args.name, 'world');
    assert.equal(call?.args.loud, true);
    assert.equal(call?.args.color, true);
    assert.equal(call?.context.io, io);
    assert.equal(call?.context.version, packageVersion());
    assert.equal(call?.context.signal.aborted, false);
  });

  test('aliases run the command', async () => {
    const hello = helloCommand();
    assert.equal(await main(['hi', 'x'], { io: memoryIO(), commands: [hello.descriptor] }), 0);
    assert.equal(hello.calls.length, 1);
  });

  test('the command\'s return value is the exit code', async () => {
    const hello = helloCommand(() => 4);
    assert.equal(await main(['hello'], { io: memoryIO(), commands: [hello.descriptor] }), 4);
  });

  test('a module that fails to load is a runtime error (3)', async () => {
    const missing = '../fixtures/does-not-exist.js';
    const broken: CommandDescriptor = {
      name: 'broken',
      description: 'cannot load',
      load: () => import(missing) as Promise<CommandImplementation>,
    };
    const io = memoryIO();
    assert.equal(await main(['broken'], { io, commands: [broken] }), 3);
    assert.match(io.err(), /does-not-exist/);
  });
});

describe('cli main: usage errors exit 2', () => {
  test('a mistyped command gets a suggestion', async () => {
    const io = memoryIO();
    assert.equal(await main(['helo'], { io, commands: [helloCommand().descriptor] }), 2);
    assert.equal(io.err(), 'agentlib: Unknown command "helo". Did you mean "hello"?\nRun "agentlib --help" for usage.\n');
    assert.equal(io.out(), '');
  });

  test('an unrelated word is an unknown command without a suggestion', async () => {
    const io = memoryIO();
    assert.equal(await main(['zzzzzz'], { io, commands: [helloCommand().descriptor] }), 2);
    assert.match(io.err(), /^agentlib: Unknown command "zzzzzz"\. The commands are: hello\.\n/);
  });

  test('an unknown command with --help fails like the command (no global help)', async () => {
    for (const argv of [['zzzzzz', '--help'], ['helo', '-h'], ['--debug', 'helo', '--help']]) {
      const io = memoryIO();
      assert.equal(await main(argv, { io, commands: [helloCommand().descriptor] }), 2, argv.join(' '));
      assert.match(io.err(), /^agentlib: Unknown command "(zzzzzz|helo)"\./, argv.join(' '));
      assert.equal(io.out(), '', argv.join(' '));
    }
  });

  test('a mistyped option gets a suggestion among the command\'s options, and the hint names the command\'s --help', async () => {
    const io = memoryIO();
    assert.equal(await main(['hello', '--lowd'], { io, commands: [helloCommand().descriptor] }), 2);
    assert.equal(io.err(), 'agentlib: Unknown option --lowd. Did you mean --loud?\nRun "agentlib hello --help" for usage.\n');
  });

  test('a global option is suggested too, and options of other commands are not', async () => {
    const other: CommandDescriptor = { name: 'other', description: 'x', builder: (yargs) => yargs.option('replay', { type: 'string' }), load: async () => ({ run: () => undefined }) };
    const io = memoryIO();
    assert.equal(await main(['hello', '--debgu', '--repaly', 'x'], { io, commands: [helloCommand().descriptor, other] }), 2);
    assert.equal(io.err(), 'agentlib: Unknown options --debgu, --repaly. --debgu: did you mean --debug?\nRun "agentlib hello --help" for usage.\n');
  });

  test('an argument too many after a known command is not an unknown command', async () => {
    const io = memoryIO();
    assert.equal(await main(['hello', 'a', 'b'], { io, commands: [helloCommand().descriptor] }), 2);
    assert.equal(io.err(), 'agentlib: Too many arguments for "hello": b.\nRun "agentlib hello --help" for usage.\n');
  });

  test('usage errors a command throws point to that command\'s --help (aliases resolved)', async () => {
    const io = memoryIO();
    const hello = helloCommand(() => {
      throw new UsageError('bad name');
    });
    assert.equal(await main(['hi', 'x'], { io, commands: [hello.descriptor] }), 2);
    assert.equal(io.err(), 'agentlib: bad name\nRun "agentlib hello --help" for usage.\n');
  });

  test('an unknown option, too many arguments and no command are usage errors', async () => {
    for (const argv of [['hello', '--lowd'], ['hello', 'a', 'b'], []]) {
      const io = memoryIO();
      assert.equal(await main(argv, { io, commands: [helloCommand().descriptor] }), 2, argv.join(' '));
      assert.match(io.err(), argv.length === 0 ? /Run "agentlib --help" for usage/ : /Run "agentlib hello --help" for usage/);
    }
  });

  test('the messages are English whatever the locale', async () => {
    const previous = process.env.LC_ALL;
    process.env.LC_ALL = 'de_DE.UTF-8';
    try {
      const io = memoryIO();
      await main(['hello', '--lowd'], { io, commands: [helloCommand().descriptor] });
      assert.match(io.err(), /Unknown option --lowd\. Did you mean --loud\?/);
    } finally {
      if (previous === undefined) delete process.env.LC_ALL;
      else process.env.LC_ALL = previous;
    }
  });

  test('--version prints the package version', async () => {
    const io = memoryIO();
    assert.equal(await main(['--version'], { io, commands: [] }), 0);
    assert.equal(io.out(), `${packageVersion()}\n`);
    assert.match(packageVersion(), /^\d+\.\d+\.\d+/);
  });
});

describe('cli main: errors from commands', () => {
  const failing = (error: unknown) => helloCommand(() => {
    throw error;
  }).descriptor;

  test('provider failures exit 3 with provider details', async () => {
    const io = memoryIO();
    const error = new ProviderError('rate limited', { provider: 'openai', status: 429, model: 'gpt-4o-mini', requestId: 'req_1' });
    assert.equal(await main(['hello'], { io, commands: [failing(error)] }), 3);
    assert.equal(io.err(), 'agentlib: ProviderError: rate limited (provider openai, model gpt-4o-mini, status 429, request req_1)\n');
  });

  test('configuration errors exit 2', async () => {
    const io = memoryIO();
    assert.equal(await main(['hello'], { io, commands: [failing(new ConfigurationError('unknown key "alow"'))] }), 2);
    assert.match(io.err(), /ConfigurationError: unknown key "alow"/);
  });

  test('cancellation exits 130', async () => {
    assert.equal(await main(['hello'], { io: memoryIO(), commands: [failing(new CancellationError())] }), 130);
  });

  test('unexpected errors exit 3; --debug prints the stack and cause', async () => {
    const bug = new TypeError('x is undefined', { cause: new Error('root cause') });
    const quiet = memoryIO();
    assert.equal(await main(['hello'], { io: quiet, commands: [failing(bug)] }), 3);
    assert.match(quiet.err(), /TypeError: x is undefined\nRun again with --debug for a stack trace\./);
    const loud = memoryIO();
    assert.equal(await main(['hello', '--debug'], { io: loud, commands: [failing(bug)] }), 3);
    assert.match(loud.err(), /at .*main\.test\.ts/);
    assert.match(loud.err(), /Caused by: Error: root cause/);
  });
});

describe('cli main: colour and interrupts', () => {
  test('--no-color turns colour off for the command; FORCE_COLOR can turn it on', async () => {
    const hello = helloCommand();
    await main(['hello'], { io: memoryIO({ FORCE_COLOR: '1' }), commands: [hello.descriptor] });
    await main(['hello', '--no-color'], { io: memoryIO({ FORCE_COLOR: '1' }), commands: [hello.descriptor] });
    await main(['hello'], { io: memoryIO({}, { isTTY: true }), commands: [hello.descriptor] });
    await main(['hello'], { io: memoryIO({ NO_COLOR: '1' }, { isTTY: true }), commands: [hello.descriptor] });
    assert.deepEqual(hello.calls.map((call) => call.context.color), [true, false, true, false]);
    assert.equal(hello.calls[1]?.args.color, false);
  });

  test('Ctrl+C aborts the running command\'s signal and exits 130', { timeout: 5000 }, async () => {
    const listenersBefore = process.listenerCount('SIGINT');
    const waiting = helloCommand(
      (_args, context) =>
        new Promise<never>((_resolve, reject) => {
          context.signal.addEventListener('abort', () => reject(context.signal.reason as Error));
          setImmediate(() => process.emit('SIGINT'));
        }),
    );
    const io = memoryIO();
    assert.equal(await main(['hello'], { io, commands: [waiting.descriptor], handleSignals: true }), 130);
    assert.match(io.err(), /Interrupted/);
    assert.ok(CancellationError.isInstance(waiting.calls[0]?.context.signal.reason));
    assert.equal(process.listenerCount('SIGINT'), listenersBefore, 'the handler is removed afterwards');
  });

  test('a command that stops cleanly after Ctrl+C still exits 130', { timeout: 5000 }, async () => {
    const stopping = helloCommand(
      (_args, context) =>
        new Promise<void>((resolve) => {
          context.signal.addEventListener('abort', () => resolve());
          setImmediate(() => process.emit('SIGINT'));
        }),
    );
    assert.equal(await main(['hello'], { io: memoryIO(), commands: [stopping.descriptor], handleSignals: true }), 130);
  });

  test('with an injected io no signal handler is installed by default', async () => {
    let seen = -1;
    const probe = helloCommand(() => {
      seen = process.listenerCount('SIGINT');
    });
    const before = process.listenerCount('SIGINT');
    await main(['hello'], { io: memoryIO(), commands: [probe.descriptor] });
    assert.equal(seen, before);
  });
});
