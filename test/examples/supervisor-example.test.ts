import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { execa } from 'execa';
import type { AgentEvent } from '../../lib/events/types.js';
import { binPath, ensureCliBuilt, repoRoot } from '../support/cli-build.js';
import { commandArgs, keylessEnv } from '../templates/offline-run.js';

const folder = join(repoRoot, 'examples', 'supervisor');

/** The `npx agentlib graph run …` line of the example's README. */
function readmeCommand(): string[] {
  const readme = readFileSync(join(folder, 'README.md'), 'utf8');
  const line = /```sh\n(npx agentlib graph run [^\n]*--replay[^\n]*)\n```/.exec(readme)?.[1];
  assert.ok(line, 'examples/supervisor/README.md shows an offline run');
  return commandArgs(line);
}

describe('examples/supervisor: the README command replays the team offline', () => {
  before(() => ensureCliBuilt());

  test('with no API key: the writer’s answer, each agent ran nested with its planned task, the whole cassette used', async () => {
    const args = readmeCommand();
    assert.deepEqual(args.slice(0, 3), ['graph', 'run', 'supervisor.yaml']);
    const run = await execa(process.execPath, [binPath, ...args, '--output-format', 'stream-json'], { cwd: folder, reject: false, extendEnv: false, env: keylessEnv() });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /not used/, 'every recorded call was replayed');
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const result = lines.at(-1) as { type: string; status: string; content: string; history: string[]; runId: string; totalUsage: { llmCalls: number } };
    assert.equal(result.type, 'result');
    assert.equal(result.status, 'completed');
    assert.match(result.content, /^Sunlight looks white/);
    assert.match(result.content, /sky looks blue/);
    assert.deepEqual(result.history, ['supervisor', 'researcher', 'supervisor', 'writer', 'supervisor']);
    assert.equal(result.totalUsage.llmCalls, 3, 'plan + researcher + writer');
    const events = lines.slice(0, -1) as unknown as AgentEvent[];
    const starts = events.filter((e): e is Extract<AgentEvent, { type: 'run-start' }> => e.type === 'run-start');
    assert.deepEqual(starts.map((e) => e.agentName), ['tide_desk-planner', 'researcher', 'writer']);
    for (const start of starts) assert.equal(start.parentRunId, result.runId, `${start.agentName} ran nested in the team's run`);
    const researcher = starts[1];
    const writer = starts[2];
    assert.match(researcher?.input ?? '', /^List the physical facts/, 'the planned task reached the researcher');
    assert.match(writer?.input ?? '', /^Explain why the sky is blue to a ten-year-old/, 'the planned task reached the writer');
    assert.match(writer?.input ?? '', /Rayleigh scattering/, 'the writer saw the researcher’s result');
    const ends = events.filter((e): e is Extract<AgentEvent, { type: 'run-end' }> => e.type === 'run-end');
    assert.deepEqual(ends.map((e) => [e.agentName, e.status]), [['tide_desk-planner', 'completed'], ['researcher', 'completed'], ['writer', 'completed']]);
  });

  test('the text view shows the plan and which agent works on what', async () => {
    const run = await execa(process.execPath, [binPath, ...readmeCommand()], { cwd: folder, reject: false, extendEnv: false, env: keylessEnv() });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.match(run.stderr, /plan:\n\s+1\. researcher: List the physical facts[^\n]*\n\s+2\. writer: Explain why the sky is blue/);
    assert.match(run.stderr, /→ researcher is working on: /);
    assert.match(run.stderr, /→ writer is working on: /);
    assert.match(run.stdout, /^Sunlight looks white/);
  });
});
