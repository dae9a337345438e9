import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureCliBuilt } from '../support/cli-build.js';
import { startStallingServer, type StallingServer, type StallScript } from '../support/stalling-server.js';
import { agentlib, cliEnv, scratchProject, type ScratchProject } from './run-helpers.js';

/** An OpenAI stream's first chunk ("Hel"), after which the stalling server goes silent. */
const FIRST_CHUNK = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }] })}\n\n`;

// With 1 s limits, 2 retries and their backoff (≤ 0.5 s, ≤ 1 s) a run ends in about 5 s; the bound
// is generous for a loaded machine and far below the old 10 minutes per attempt.
const BOUND_MS = 25_000;

/** Writes an agent file next to the calculator's tools with these `provider:` timeout keys. */
function agentWith(project: ScratchProject, name: string, timeouts: string): string {
  const file = join(project.dir, 'calculator', `${name}.yaml`);
  writeFileSync(file, `name: ${name}\nprovider:\n  type: openai\n${timeouts}model: gpt-4o-mini\ntools: [./tools.ts]\n`);
  return file;
}

/** The environment pointing OpenAI at `server` (no terminal: CI set, stderr piped). */
function envFor(server: StallingServer): Record<string, string> {
  return cliEnv(undefined, { OPENAI_BASE_URL: `${server.url}/v1` });
}

describe('agentlib run against a provider that goes silent (built CLI)', () => {
  let project: ScratchProject;
  before(() => {
    ensureCliBuilt();
    project = scratchProject();
  });
  after(() => project.cleanup());

  /** Runs `agentlib run <agent> <question> …extra` against a stalling server: it must exit 3 within the bound. */
  async function runStalled(script: StallScript, agent: string, extra: string[] = []): Promise<{ stderr: string; stdout: string; requests: number }> {
    const server = await startStallingServer(script);
    try {
      const started = performance.now();
      const result = await agentlib(['run', agent, 'What is 2 + 2?', '--no-trace', ...extra], { cwd: project.dir, env: envFor(server) });
      const elapsed = performance.now() - started;
      assert.equal(result.exitCode, 3, result.stderr);
      assert.ok(elapsed < BOUND_MS, `ended after ${Math.round(elapsed)} ms`);
      return { stderr: result.stderr, stdout: result.stdout, requests: server.received() };
    } finally {
      await server.close();
    }
  }

  test('accepts and never answers: --timeout 1 ends the run with exit 3 after the retries, quietly', async () => {
    const { stderr, stdout } = await runStalled({}, project.agent, ['--timeout', '1']);
    assert.equal(stderr.match(/^retrying openai in .* \(attempt \d\): openai timeout error/gm)?.length, 2, 'the first attempt and 2 retries');
    assert.match(stderr, /first-byte timeout/);
    // No terminal: no spinner frames or carriage returns, only lines.
    assert.doesNotMatch(stderr, /\r|[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    assert.equal(stdout, '');
  });

  test('stalls mid-stream after output: idle_timeout_ms ends the run with exit 3, not retried', async () => {
    // A wide first-byte limit: only the idle one can end this run, however loaded the machine.
    const { stderr, requests } = await runStalled({ head: FIRST_CHUNK }, agentWith(project, 'stall', '  first_byte_timeout_ms: 20000\n  idle_timeout_ms: 1000\n'));
    assert.equal(requests, 1, 'a stream that emitted output is never retried');
    assert.doesNotMatch(stderr, /retrying/);
    assert.match(stderr, /idle timeout/);
  });

  test('the YAML key first_byte_timeout_ms bounds the run without the flag', async () => {
    const { stderr } = await runStalled({}, agentWith(project, 'quick', '  first_byte_timeout_ms: 1000\n'));
    assert.match(stderr, /first-byte timeout/);
  });

  test('--timeout is refused where it has no effect (--replay) and when it is not a number of seconds', async () => {
    const replay = await agentlib(['run', project.agent, 'hi', '--timeout', '5', '--replay', join(project.dir, 'calculator', 'cassette.jsonl')], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(replay.exitCode, 2);
    assert.match(replay.stderr, /--timeout has no effect with --replay/);
    const negative = await agentlib(['run', project.agent, 'hi', '--timeout', '-1'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(negative.exitCode, 2);
    assert.match(negative.stderr, /--timeout takes a number of seconds/);
  });
});
