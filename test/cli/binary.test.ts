import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, describe, test } from 'node:test';
import { binPath, ensureCliBuilt, repoRoot } from '../support/cli-build.js';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `agentlib` binary with a clean colour environment and no stdin. */
function agentlib(args: readonly string[], env: Record<string, string> = {}, nodeArgs: readonly string[] = []): Run {
  const base = { ...process.env };
  delete base.NO_COLOR;
  delete base.FORCE_COLOR;
  const result = spawnSync(process.execPath, [...nodeArgs, binPath, ...args], {
    cwd: repoRoot,
    env: { ...base, CI: 'true', ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const HEAVY = ['ink', 'react', 'openai', '@anthropic-ai/sdk', '@google/genai', 'ollama', 'gpt-tokenizer', 'better-sqlite3', '@modelcontextprotocol'];

/** True when a trace line (specifier and resolved URL or path) refers to package `name`. */
function refersTo(line: string, name: string): boolean {
  const escaped = name.replace(/[/]/g, '[\\\\/]').replace(/\./g, '\\.');
  return new RegExp(`(^${escaped}(/|\\t|$))|([\\\\/]node_modules[\\\\/]${escaped}([\\\\/]|$))`).test(line);
}

describe('agentlib binary', () => {
  before(() => ensureCliBuilt());

  test('--version prints the version from package.json', () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const run = agentlib(['--version']);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), version);
    assert.equal(run.stderr, '');
  });

  test('--help shows usage, global options, examples and environment variables on stdout', () => {
    const run = agentlib(['--help']);
    assert.equal(run.status, 0, run.stderr);
    for (const expected of ['agentlib <command> [options]', 'Global options:', '--no-color', '--version', 'Examples:', 'Environment variables:', 'Exit codes:']) {
      assert.ok(run.stdout.includes(expected), `help should mention ${expected}:\n${run.stdout}`);
    }
    for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'OLLAMA_HOST', 'NO_COLOR', 'AGENTLIB_AUTH_TOKEN']) {
      assert.ok(run.stdout.includes(name), `help should list ${name}`);
    }
    assert.equal(run.stderr, '');
  });

  test('an unknown command exits 2 with a message and a suggestion on stderr', () => {
    const typo = agentlib(['complection']);
    assert.equal(typo.status, 2);
    assert.equal(typo.stdout, '');
    assert.match(typo.stderr, /Unknown command "complection"\. Did you mean "completion"\?/);
    assert.match(typo.stderr, /Run "agentlib --help" for usage\./);
    const unknown = agentlib(['frobnicate']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /Unknown command "frobnicate"\./);
  });

  test('an unknown command\'s --help fails like the command: exit 2, no global help', () => {
    for (const args of [['frobnicate', '--help'], ['frobnicate', '-h'], ['frobincate', 'x', '--help']]) {
      const run = agentlib(args);
      assert.equal(run.status, 2, args.join(' '));
      assert.equal(run.stdout, '', args.join(' '));
      assert.match(run.stderr, /^agentlib: Unknown command "frob(nic|inc)ate"\. The commands are: chat, run, serve, eval, graph, trace, sessions, rag, mcp, policy, guard, init, doctor\.\n/, args.join(' '));
    }
  });

  test('a mistyped option gets a suggestion among the command\'s options and points to the command\'s --help', () => {
    const run = agentlib(['run', 'agent.yaml', 'hi', '--repaly', 'c.jsonl']);
    assert.equal(run.status, 2);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr, 'agentlib: Unknown option --repaly. Did you mean --replay?\nRun "agentlib run --help" for usage.\n');
    const trace = agentlib(['trace', 'ls', '--limt', '3']);
    assert.equal(trace.status, 2);
    assert.equal(trace.stderr, 'agentlib: Unknown option --limt. Did you mean --limit?\nRun "agentlib trace --help" for usage.\n');
  });

  test('no command exits 2 and says what to do', () => {
    const run = agentlib([]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /Specify a command\./);
  });

  test('NO_COLOR and --no-color are accepted by the real CLI', () => {
    assert.equal(agentlib(['--version'], { NO_COLOR: '1' }).status, 0);
    assert.equal(agentlib(['--no-color', '--version']).status, 0);
  });

  /** The modules a run of the binary loaded (specifier and resolved path per line). */
  function loadedModules(args: readonly string[], succeeds = true): string[] {
    const dir = mkdtempSync(join(tmpdir(), 'agentlib-trace-'));
    try {
      const traceFile = join(dir, 'trace.txt');
      const run = agentlib(args, { AGENTLIB_MODULE_TRACE: traceFile }, ['--import', join(repoRoot, 'test', 'support', 'module-trace-register.mjs')]);
      if (succeeds) assert.equal(run.status, 0, run.stderr);
      return readFileSync(traceFile, 'utf8').split('\n').filter(Boolean);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  test('a bare --help is answered by the launcher: neither the CLI nor yargs is loaded', () => {
    const lines = loadedModules(['--help']);
    assert.deepEqual(lines.filter((line) => /[\\/]dist[\\/]/.test(line) || refersTo(line, 'yargs')), []);
    for (const name of HEAVY) assert.deepEqual(lines.filter((line) => refersTo(line, name)), [], `--help must not load ${name}`);
  });

  test('--help through the CLI (with other flags) loads no heavy module and no command module', () => {
    const lines = loadedModules(['--debug', '--help']);
    // the trace works: it saw the CLI and its argument parser
    assert.ok(lines.some((line) => /[\\/]dist[\\/]cli[\\/]main\.js$/.test(line)), 'trace should record dist/cli/main.js');
    assert.ok(lines.some((line) => /[\\/]dist[\\/]cli[\\/]program\.bundle\.js$/.test(line)), 'trace should record the yargs program (dist/cli/program.bundle.js)');
    for (const name of HEAVY) {
      const hits = lines.filter((line) => refersTo(line, name));
      assert.deepEqual(hits, [], `--help must not load ${name}`);
    }
    const commandModules = lines.filter((line) => /[\\/]dist[\\/](commands|tui)[\\/]/.test(line));
    assert.deepEqual(commandModules, [], '--help must not load command or TUI modules');
  });

  test('the launcher\'s help files are exactly what the CLI prints, at every width', async () => {
    const { main } = (await import(pathToFileURL(join(repoRoot, 'dist', 'cli', 'main.js')).href)) as { main: (argv: string[], options: object) => Promise<number> };
    for (const width of [40, 57, 80, 99, 100]) {
      let out = '';
      const io = { stdout: { write: (s: string) => void (out += s), columns: width }, stderr: { write: () => undefined }, env: {} };
      assert.equal(await main(['--help'], { io, handleSignals: false }), 0);
      assert.equal(readFileSync(join(repoRoot, 'dist', 'cli', 'help', `${width}.txt`), 'utf8'), out, `width ${width}`);
    }
    // not a terminal: width 80, same bytes as the CLI's own help
    assert.equal(agentlib(['--help']).stdout, agentlib(['--debug', '--help']).stdout);
  });

  test('each command\'s help file is exactly what the CLI prints for `<command> --help`, at every width', async () => {
    const { main } = (await import(pathToFileURL(join(repoRoot, 'dist', 'cli', 'main.js')).href)) as { main: (argv: string[], options: object) => Promise<number> };
    const { commandDescriptors } = (await import(pathToFileURL(join(repoRoot, 'dist', 'cli', 'commands.js')).href)) as { commandDescriptors: readonly { name: string }[] };
    assert.ok(commandDescriptors.length > 0);
    for (const { name } of commandDescriptors) {
      for (const width of [40, 80, 100]) {
        let out = '';
        const io = { stdout: { write: (s: string) => void (out += s), columns: width }, stderr: { write: () => undefined }, env: {} };
        assert.equal(await main([name, '--help'], { io, handleSignals: false }), 0, name);
        assert.equal(readFileSync(join(repoRoot, 'dist', 'cli', 'help', name, `${width}.txt`), 'utf8'), out, `${name} at width ${width}`);
      }
    }
    const cached = agentlib(['run', '--help']);
    assert.equal(cached.status, 0, cached.stderr);
    assert.equal(cached.stdout, agentlib(['--debug', 'run', '--help']).stdout);
    assert.equal(agentlib(['run', '-h']).stdout, cached.stdout);
  });

  test('`<command> --help` is answered by the launcher; a command without a help file goes to the CLI', () => {
    const lines = loadedModules(['run', '--help']);
    assert.deepEqual(lines.filter((line) => /[\\/]dist[\\/]/.test(line) || refersTo(line, 'yargs')), []);
    const unknown = loadedModules(['no-such-command', '--help'], false);
    assert.ok(unknown.some((line) => /[\\/]dist[\\/]cli[\\/]main\.js$/.test(line)), 'the CLI answers a command it has no help file for');
  });

  test('the heavy-module matcher recognises package paths and bare specifiers', () => {
    assert.equal(refersTo('ink\tfile:///x/node_modules/ink/build/index.js', 'ink'), true);
    assert.equal(refersTo('(require)\t/x/node_modules/better-sqlite3/lib/index.js', 'better-sqlite3'), true);
    assert.equal(refersTo('@anthropic-ai/sdk\tfile:///x/node_modules/@anthropic-ai/sdk/index.mjs', '@anthropic-ai/sdk'), true);
    assert.equal(refersTo('./thinking.js\tfile:///x/node_modules/yargs/build/lib/ink.js', 'ink'), false);
    assert.equal(refersTo('react-is\tfile:///x/node_modules/react-is/index.js', 'react'), false);
  });
});
