import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { AgentTrace } from '../../lib/trace/agent-trace.js';
import { recordedResponses, sseResponse } from '../support/replay-server.js';
import { agentlib, CALCULATOR_RECORDING, cliEnv, cliSuite, enqueueCalculator, QUESTION, type CliProcess } from './run-helpers.js';

/** The calculator agent with a `multiply` that blocks until the file `$GATE_FILE` exists. */
function gatedAgent(dir: string): string {
  writeFileSync(
    join(dir, 'calculator', 'gated-tools.ts'),
    [
      "import { existsSync } from 'node:fs';",
      "import { tool } from 'agentlib';",
      "import { z } from 'zod';",
      'export const multiply = tool({',
      "  name: 'multiply',",
      "  description: 'Multiply two integers exactly.',",
      '  parameters: z.object({ a: z.union([z.number(), z.string()]), b: z.union([z.number(), z.string()]) }),',
      '  execute: async ({ a, b }) => {',
      '    await new Promise<void>((resolve) => {',
      '      const timer = setInterval(() => {',
      '        if (existsSync(process.env.GATE_FILE ?? "")) (clearInterval(timer), resolve());',
      '      }, 10);',
      '    });',
      '    return (BigInt(a) * BigInt(b)).toString();',
      '  },',
      '});',
      '',
    ].join('\n'),
  );
  const agent = join(dir, 'calculator', 'gated.yaml');
  writeFileSync(agent, readFileSync(join(dir, 'calculator', 'agent.yaml'), 'utf8').replace('./tools.ts', './gated-tools.ts'));
  return agent;
}

/** Polls until `file` holds a line with `"type":"<type>"` (or the run ends, which fails the test). */
async function waitForStep(file: string, type: string, child: CliProcess): Promise<void> {
  let ended = false;
  void child.then(() => (ended = true));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (existsSync(file) && readFileSync(file, 'utf8').includes(`"type":"${type}"`)) return;
    if (ended) assert.fail(`the run ended before its trace had a ${type} step:\n${(await child).stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.fail(`no ${type} step in ${file} within 30 s`);
}

describe('agentlib run: the trace is written step by step', () => {
  const suite = cliSuite();

  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    test(`a run killed with ${signal} while a tool blocks leaves a readable trace of the steps so far, marked incomplete`, async () => {
      const { project, server } = suite;
      const agent = gatedAgent(project.dir);
      // only the reply that calls the tool: the run never gets further
      const [toolCall] = recordedResponses(CALCULATOR_RECORDING);
      server.enqueue(sseResponse(toolCall?.body ?? '', 11));
      const file = join(project.dir, 'killed', `${signal}.jsonl`);
      const gate = join(project.dir, `gate-${signal}`);
      const child = agentlib(['run', agent, QUESTION, '--trace', file], { cwd: project.dir, env: cliEnv(server, { GATE_FILE: gate }) });
      await waitForStep(file, 'tool_selection', child);
      child.kill(signal);
      await child;

      const trace = AgentTrace.fromJSONL(readFileSync(file, 'utf8'));
      assert.equal(trace.incomplete, true);
      assert.equal(trace.agentName, 'calculator');
      assert.deepEqual(trace.steps.map((step) => step.type), ['llm_call', 'tool_selection']);
      assert.equal(trace.steps[1]?.name, 'multiply');

      // The CLI reads it: show (and its JSON) and ls say it is incomplete.
      const show = await agentlib(['trace', 'show', file, '--json'], { cwd: project.dir, env: cliEnv(undefined) });
      assert.equal(show.exitCode, 0, show.stderr);
      assert.equal((JSON.parse(show.stdout) as { trace: { incomplete?: boolean } }).trace.incomplete, true);
      const ls = await agentlib(['trace', 'ls', '--dir', 'killed'], { cwd: project.dir, env: cliEnv(undefined) });
      assert.match(ls.stdout, new RegExp(`^${signal}\\s+calculator\\s+incomplete\\s`, 'm'));
    });
  }

  test('a run that finishes replaces the partial file with the whole trace', async () => {
    const { project, server } = suite;
    const agent = gatedAgent(project.dir);
    enqueueCalculator(server);
    const file = join(project.dir, 'finished.jsonl');
    const gate = join(project.dir, 'gate-open');
    const child = agentlib(['run', agent, QUESTION, '--trace', file], { cwd: project.dir, env: cliEnv(server, { GATE_FILE: gate }) });
    await waitForStep(file, 'tool_selection', child);
    const partial = AgentTrace.fromJSONL(readFileSync(file, 'utf8'));
    assert.equal(partial.incomplete, true, 'while the tool blocks, the file says the trace is not finished');
    writeFileSync(gate, '');
    const run = await child;
    assert.equal(run.exitCode, 0, run.stderr);
    assert.match(run.stderr, /trace finished\.jsonl/);
    const trace = AgentTrace.fromJSONL(readFileSync(file, 'utf8'));
    assert.equal(trace.incomplete, undefined);
    assert.equal(trace.status, 'completed');
    assert.deepEqual(trace.steps.map((step) => step.type), ['llm_call', 'tool_selection', 'tool_execution', 'llm_call']);
    assert.equal(trace.metadata['agent'], 'calculator', 'the run\'s own trace, with its metadata');
  });
});
