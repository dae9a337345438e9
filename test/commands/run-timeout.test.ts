import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureCliBuilt } from '../support/cli-build.js';
import { startStallingServer, type StallingServer } from '../support/stalling-server.js';
import { agentlib, cliEnv, scratchProject, type ScratchProject } from './run-helpers.js';

/** An OpenAI stream's first chunk ("Hel"), after which the stalling server goes silent. */
const FIRST_CHUNK = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }] })}\n\n`;

// With 1 s limits, 2 retries and their backoff (≤ 0.5 s, ≤ 1 s) a run ends in about 5 s; the bound
// is generous for a loaded machine and far below the old 10 minutes per attempt.
const BOUND_MS = 25_000;

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

  test('accepts and never answers: --timeout 1 ends the run with exit 3 after the retries, quietly', async () => {
    const server = await startStallingServer();
    try {
      const started = performance.now();
      const result = await agentlib(['run', project.agent, 'What is 2 + 2?', '--timeout', '1', '--no-trace'], { cwd: project.dir, env: envFor(server) });
      const elapsed = performance.now() - started;
      assert.equal(result.exitCode, 3, result.stderr);
      assert.ok(elapsed < BOUND_MS, `ended after ${Math.round(elapsed)} ms`);
      assert.equal(result.stderr.match(/^retrying openai in .* \(attempt \d\): openai timeout error/gm)?.length, 2, 'the first attempt and 2 retries');
      assert.match(result.stderr, /first-byte timeout/);
      // No terminal: no spinner frames or carriage returns, only lines.
      assert.doesNotMatch(result.stderr, /\r|[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
      assert.equal(result.stdout, '');
    } finally {
      await server.close();
    }
  });

  test('stalls mid-stream after output: idle_timeout_ms ends the run with exit 3, not retried', async () => {
    const server = await startStallingServer({ head: FIRST_CHUNK });
    // A wide first-byte limit: only the idle one can end this run, however loaded the machine.
    const file = join(project.dir, 'calculator', 'stall.yaml');
    writeFileSync(file, 'name: stall\nprovider:\n  type: openai\n  first_byte_timeout_ms: 20000\n  idle_timeout_ms: 1000\nmodel: gpt-4o-mini\ntools: [./tools.ts]\n');
    try {
      const started = performance.now();
      const result = await agentlib(['run', file, 'What is 2 + 2?', '--no-trace'], { cwd: project.dir, env: envFor(server) });
      assert.equal(result.exitCode, 3, result.stderr);
      assert.ok(performance.now() - started < BOUND_MS);
      assert.equal(server.received(), 1, 'a stream that emitted output is never retried');
      assert.doesNotMatch(result.stderr, /retrying/);
      assert.match(result.stderr, /idle timeout/);
    } finally {
      await server.close();
    }
  });

  test('the YAML key first_byte_timeout_ms bounds the run without the flag', async () => {
    const server = await startStallingServer();
    const file = join(project.dir, 'calculator', 'quick.yaml');
    writeFileSync(file, 'name: quick\nprovider:\n  type: openai\n  first_byte_timeout_ms: 1000\nmodel: gpt-4o-mini\ntools: [./tools.ts]\n');
    try {
      const started = performance.now();
      const result = await agentlib(['run', file, 'What is 2 + 2?', '--no-trace'], { cwd: project.dir, env: envFor(server) });
      assert.equal(result.exitCode, 3, result.stderr);
      assert.ok(performance.now() - started < BOUND_MS);
      assert.match(result.stderr, /first-byte timeout/);
    } finally {
      await server.close();
    }
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
