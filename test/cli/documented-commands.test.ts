// Every command line the documentation shows a user runs as written: the examples of
// `agentlib --help` and of each command's `--help`, and the shell lines of README.md's code
// blocks. They run against the built binary (`agentlib` on PATH; `npx agentlib` is run as
// `agentlib`: what npx itself does in a checkout is tested in test/scripts/build-fingerprint.test.ts),
// each in a fresh copy of a scratch project (the examples, an agent.yaml, two traces), offline:
// provider calls go to the loopback replay server, any other connection is refused
// (scripts/no-network.mjs is loaded into every process). `serve` is started, used by the lines
// after it in the same block (curl) and stopped; `chat` is started in a terminal (tmux) and
// quit. New lines in README.md are picked up without changing this file; only lines that are not
// `agentlib` commands need a reason below.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CommandDescriptor } from '../../cli/command-descriptor.js';
import { commandDescriptors } from '../../cli/commands.js';
import { programExamples } from '../../cli/help.js';
import { binPath, ensureCliBuilt, repoRoot } from '../support/cli-build.js';
import { fixture, startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { requires } from '../support/requirements.js';
import { shellQuote, waitFor } from '../support/tmux.js';

/** README lines that are not agentlib commands, and why they are not run here. */
const NOT_RUN: readonly (readonly [RegExp, string])[] = [
  [/^npm ci\b/, 'installs the dependencies: this test runs in an installed checkout'],
  [/^npm test\b/, 'runs the whole test suite, this test included'],
  [/^npm (install|i) /, 'installs from a registry or a tarball: needs the network or a packed build'],
  [/^npm pack\b/, 'packs the checkout: tested by the package tests'],
];

/** A tmux server of this test's own: other suites' sessions never touch it. */
const TMUX = ['-L', `agentlib-documented-${process.pid}`];

/** Placeholders in documented commands and what stands for them here. */
const PLACEHOLDERS: Readonly<Record<string, string>> = { '<command>': 'doctor --offline', '<id>': 'run_3f2a', 'AGENTLIB_AUTH_TOKEN=…': 'AGENTLIB_AUTH_TOKEN=example-token-0123456789' };

/** Every example of a descriptor's help: its `examples` and the ones its builder adds. */
function builderExamples(command: CommandDescriptor): string[] {
  const found: string[] = [];
  const recorder: object = new Proxy(
    {},
    {
      get: (_target, key) =>
        key === 'example'
          ? (line: string) => {
              found.push(line);
              return recorder;
            }
          : () => recorder,
    },
  );
  command.builder?.(recorder as Parameters<NonNullable<CommandDescriptor['builder']>>[0]);
  return found;
}

/** The examples `agentlib --help` and every `agentlib <command> --help` show. */
function helpExamples(): string[] {
  const lines = [...programExamples(commandDescriptors).map(([line]) => line), ...commandDescriptors.flatMap(builderExamples)];
  return [...new Set(lines.map((line) => line.replace(/\$0/g, 'agentlib')))];
}

/** The shell lines of README.md's `sh` code blocks, block by block (comments dropped). */
function readmeBlocks(): string[][] {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  return [...readme.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)].map((match) =>
    (match[1] ?? '')
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
}

function substitute(line: string): string {
  let out = line.replace(/^npx agentlib\b/, 'agentlib');
  for (const [placeholder, value] of Object.entries(PLACEHOLDERS)) out = out.split(placeholder).join(value);
  return out;
}

describe('documented commands run as written', () => {
  let work = '';
  let template = '';
  let bin = '';
  let server: ReplayServer;
  const sessions: string[] = [];
  let env: Record<string, string> = {};

  before(async () => {
    ensureCliBuilt();
    mkdirSync(join(repoRoot, 'test-artifacts'), { recursive: true });
    // Under the repository, so that the tools' `agentlib` and `zod` imports resolve as in a checkout.
    work = mkdtempSync(join(repoRoot, 'test-artifacts', 'documented-'));
    bin = join(work, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'agentlib'), `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(binPath)} "$@"\n`);
    chmodSync(join(bin, 'agentlib'), 0o755);
    server = await startReplayServer();
    env = {
      ...(process.env as Record<string, string>),
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      CI: 'true',
      NO_COLOR: '1',
      AGENTLIB_CACHE_DIR: join(work, 'cache'),
      NODE_OPTIONS: `--import ${join(repoRoot, 'scripts', 'no-network.mjs')}`,
      OPENAI_API_KEY: 'sk-test-not-a-real-key',
      OPENAI_BASE_URL: `${server.url}/v1`,
    };
    delete env.ANTHROPIC_API_KEY;
    delete env.GEMINI_API_KEY;
    delete env.GOOGLE_API_KEY;
    // The scratch project every command starts from, laid out like the repository root the README
    // is read in: the examples and the templates (with their cassettes), an agent.yaml (the
    // calculator) in its root and under agents/, and two saved traces with the ids the help uses.
    template = join(work, 'template');
    for (const dir of ['examples', 'templates']) cpSync(join(repoRoot, dir), join(template, dir), { recursive: true });
    for (const dir of [template, join(template, 'agents')]) {
      mkdirSync(dir, { recursive: true });
      cpSync(join(repoRoot, 'examples', 'calculator', 'tools.ts'), join(dir, 'tools.ts'));
    }
    cpSync(join(repoRoot, 'examples', 'calculator', 'agent.yaml'), join(template, 'agent.yaml'));
    cpSync(join(repoRoot, 'examples', 'calculator', 'agent.yaml'), join(template, 'agents', 'support.yaml'));
    for (const id of ['run_3f2a', 'run_9c1d']) {
      const made = await shell(`agentlib run agent.yaml "What is 1231 * 2331?" --replay examples/calculator/cassette.jsonl --trace .agentlib/traces/${id}.jsonl --quiet`, template);
      assert.equal(made.status, 0, made.stderr);
    }
  });

  after(async () => {
    if (sessions.length > 0) spawnSync('tmux', [...TMUX, 'kill-server'], { stdio: 'ignore' });
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  let copies = 0;
  function freshProject(): string {
    const dir = join(work, `project-${++copies}`);
    cpSync(template, dir, { recursive: true });
    return dir;
  }

  /** Runs a shell line (asynchronously: the replay server answers in this process). */
  function emptyDir(): string {
    const dir = join(work, `empty-${++copies}`);
    mkdirSync(dir);
    return dir;
  }

  function shell(line: string, cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn('sh', ['-c', line], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
  }

  /** A provider answer for commands that call it: a recorded text stream (run, no --replay), a model list (doctor). */
  function enqueueReply(line: string): void {
    if (/\bagentlib (run|chat)\b/.test(line) && !line.includes('--replay')) {
      server.enqueue({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: fixture('openai/chat.text.stream.include_usage.sse') });
    }
    // doctor probes the provider (GET /v1/models) unless --offline
    if (/\bagentlib doctor\b/.test(line) && !/--offline|--help/.test(line)) {
      server.enqueue({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"object":"list","data":[]}' });
    }
  }

  /** Starts `agentlib serve …` in the background; resolves once it listens, with a stop function. */
  async function startServe(line: string, cwd: string): Promise<() => Promise<void>> {
    const child = spawn('sh', ['-c', `exec env ${line}`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let exited: number | null | undefined;
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const closed = new Promise<void>((resolve) =>
      child.on('close', (code) => {
        exited = code;
        resolve();
      }),
    );
    await waitFor(() => /http:\/\/\S+:\d+/.test(output) || exited !== undefined, `${line} to listen`, 60_000);
    assert.equal(exited, undefined, `${line} exited (${String(exited)}):\n${output}`);
    return async () => {
      child.kill('SIGTERM');
      await closed;
    };
  }

  /** Starts `agentlib chat …` in a terminal, waits for its input line, quits with Ctrl+C twice. */
  async function checkChat(line: string, cwd: string): Promise<void> {
    // Without tmux: a local run leaves the chat line out; a CI run fails (requires throws).
    if (requires('tmux').skip !== false) return;
    const session = `agentlib-doc-${process.pid}-${++copies}`;
    sessions.push(session);
    const vars = Object.entries({ ...env, CI: '' })
      .filter(([name]) => /^(PATH|NO_COLOR|AGENTLIB_CACHE_DIR|NODE_OPTIONS|OPENAI_API_KEY|OPENAI_BASE_URL|HOME)$/.test(name))
      .map(([name, value]) => `${name}=${shellQuote(value)}`)
      .join(' ');
    execFileSync('tmux', [...TMUX, 'new-session', '-d', '-s', session, '-x', '120', '-y', '40', `cd ${shellQuote(cwd)} && env -u CI ${vars} ${line}; sleep 60`]);
    const pane = (): string => execFileSync('tmux', [...TMUX, 'capture-pane', '-p', '-t', session], { encoding: 'utf8' });
    await waitFor(() => pane().includes('Ask something'), `${line} to show its input line`, 60_000);
    execFileSync('tmux', [...TMUX, 'send-keys', '-t', session, 'C-c']);
    execFileSync('tmux', [...TMUX, 'send-keys', '-t', session, 'C-c']);
    // The session (now running `sleep`) is left to after(): killing the last one stops the tmux
    // server, which a following new-session could race with.
  }

  /**
   * Runs the lines of one block in order in one fresh project (an empty directory for a lone
   * `agentlib init`, which writes ./agent.yaml); a serve runs until the block ends.
   */
  async function runBlock(lines: readonly string[]): Promise<void> {
    const cwd = lines.length === 1 && /^agentlib init\b/.test(substitute(lines[0] ?? '')) ? emptyDir() : freshProject();
    const stops: (() => Promise<void>)[] = [];
    try {
      for (const raw of lines) {
        const reason = NOT_RUN.find(([pattern]) => pattern.test(raw));
        if (reason !== undefined) continue;
        const line = substitute(raw);
        assert.match(line, /^(\w+=\S+ )*(agentlib|echo .*\| agentlib|curl) /, `not an agentlib command; run it here or add it to NOT_RUN with a reason: ${raw}`);
        if (/\bagentlib serve\b/.test(line)) {
          stops.push(await startServe(line, cwd));
        } else if (/\bagentlib chat\b/.test(line)) {
          await checkChat(line, cwd);
        } else {
          enqueueReply(line);
          const result = await shell(line, cwd);
          assert.equal(result.status, 0, `${raw}\nexit ${String(result.status)}\n${result.stdout}${result.stderr}`);
          if (line.startsWith('curl')) assert.match(result.stdout, /"output"|"content"|2,869,461/, `${raw}: ${result.stdout}`);
        }
      }
    } finally {
      for (const stop of stops) await stop();
    }
  }

  test('the help examples name files and traces that exist, and run', async () => {
    const examples = helpExamples();
    assert.ok(examples.length >= 10, examples.join('\n'));
    for (const example of examples) await runBlock([example]);
  });

  test("README.md's shell commands run", async () => {
    const blocks = readmeBlocks();
    assert.ok(blocks.flat().some((line) => line.startsWith('npx agentlib run')), 'README has agentlib commands');
    for (const block of blocks) await runBlock(block);
  });
});
