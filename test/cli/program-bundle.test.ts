import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { CommandDescriptor } from '../../cli/command-descriptor.js';
import type { ProgramModule } from '../../cli/load-program.js';
import { ensureCliBuilt, repoRoot } from '../support/cli-build.js';

// dist/cli/program.bundle.js (scripts/bundle-tui.mjs) is cli/program.js with yargs inlined; the
// built CLI loads it instead of the module. It must parse and word its messages exactly as the
// module does.

const command: CommandDescriptor = {
  name: 'hello',
  positionals: '[name]',
  description: 'say hello (test command)',
  builder: (yargs) => yargs.option('loud', { type: 'boolean', describe: 'shout' }).option('volume', { type: 'number', describe: 'how loud', implies: 'loud' }),
  load: () => Promise.resolve({ run: () => undefined }),
};

/** Parses `argv` with the program of `module`: the error message or the printed output. */
async function outcome(module: ProgramModule, argv: string[]): Promise<string> {
  let output = '';
  const program = module.createProgram({ argv, version: '1.2.3', commands: [command], columns: 80, runCommand: () => Promise.resolve() });
  try {
    await program.parseAsync(argv, {}, (_error, _args, text) => {
      output += text;
    });
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
  return output;
}

describe('the bundled yargs program', () => {
  let bundled: ProgramModule;
  let unbundled: ProgramModule;
  before(async () => {
    ensureCliBuilt();
    bundled = (await import(pathToFileURL(join(repoRoot, 'dist', 'cli', 'program.bundle.js')).href)) as ProgramModule;
    unbundled = (await import(pathToFileURL(join(repoRoot, 'dist', 'cli', 'program.js')).href)) as ProgramModule;
  });

  test("reads yargs' English messages (not its message keys)", async () => {
    assert.match(await outcome(bundled, ['hello', '--volume', '3']), /^error: Missing dependent arguments:/);
  });

  test('loading it creates no Intl.Segmenter (string-width makes one when it first measures text)', () => {
    const bundle = pathToFileURL(join(repoRoot, 'dist', 'cli', 'program.bundle.js')).href;
    const script = [
      'let made = 0;',
      'const Segmenter = Intl.Segmenter;',
      'Intl.Segmenter = class extends Segmenter { constructor(...args) { super(...args); made++; } };',
      `await import(${JSON.stringify(bundle)});`,
      'console.log(made);',
    ].join('\n');
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim(), '0');
  });

  test('prints and refuses exactly what the module does', async () => {
    for (const argv of [['--help'], ['hello', '--help'], ['hello', '--volume', '3'], ['hello', '--lowd'], ['helo'], ['hello', 'a', 'b'], ['--version']]) {
      assert.equal(await outcome(bundled, argv), await outcome(unbundled, argv), argv.join(' '));
    }
  });
});
