import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { NOT_SUPPORTED_YET } from '../../lib/agent/not-supported-yet.js';
import { agentlib, ANSWER, cliEnv, cliSuite, enqueueCalculator, QUESTION } from './run-helpers.js';

describe('agentlib run: agent YAML keys whose subsystem has not landed (built binary)', () => {
  const suite = cliSuite();

  test('each not-supported-yet key is refused with exit 2 and file:line:col, before any provider call', async () => {
    const { project, server } = suite;
    const keys = NOT_SUPPORTED_YET.flatMap((entry) => entry.yamlKeys);
    const file = join(project.dir, 'calculator', 'pending.yaml');
    const lines = ['name: pending', 'provider: openai', 'guardrails:', '  input:', '    - { type: topic, keywords: [politics], action: block }', ...keys.filter((key) => key !== 'guardrails').map((key) => `${key}: {}`)];
    writeFileSync(file, `${lines.join('\n')}\n`);
    const before = server.requests.length;
    const run = await agentlib(['run', file, 'What do you think about politics?'], { cwd: project.dir, env: cliEnv(server) });
    assert.equal(run.exitCode, 2, run.stderr);
    assert.equal(run.stdout, '');
    assert.equal(server.requests.length, before, 'no provider call');
    for (const key of keys) {
      const line = lines.findIndex((text) => text.startsWith(`${key}:`)) + 1;
      assert.match(run.stderr, new RegExp(`pending\\.yaml:${line}:1: "${key}" is not supported yet: it will come with `), key);
    }
  });

  test('a supported group key still loads and runs', async () => {
    const { project, server } = suite;
    const file = join(project.dir, 'calculator', 'supported.yaml');
    writeFileSync(file, `${readFileSync(project.agent, 'utf8')}retry:\n  max_retries: 0\nbudget:\n  max_cost_usd: 5\n`);
    enqueueCalculator(server);
    const run = await agentlib(['run', file, QUESTION], { cwd: project.dir, env: cliEnv(server) });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.equal(run.stdout, ANSWER);
  });
});
