import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ConfigFileError } from '../../../lib/core/errors/config-file-error.js';
import { loadGraph, parseSupervisorConfig, SupervisorAgent } from '../../../lib/graph/index.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';

const GOOD = `kind: supervisor
name: team
strategy: plan_and_execute
provider: openai
planner_model: gpt-4o
max_rounds: 4
error_policy: skip
agents:
  - ./researcher.yaml
  - ./writer.yaml
`;

describe('kind: supervisor YAML', () => {
  test('bad values are reported together with file:line', () => {
    const text = 'kind: supervisor\nstrategy: hierarchical\nprovider: openai\nmax_rounds: 0\nagents: []\nmax_stals: 3\n';
    assert.throws(() => parseSupervisorConfig(text, { source: 'team.yaml' }), (e: unknown) => {
      assert.ok(ConfigFileError.isInstance(e));
      assert.match(e.message, /team\.yaml:2:\d+.*strategy/);
      assert.match(e.message, /hierarchical/);
      assert.match(e.message, /team\.yaml:4:\d+.*max_rounds/);
      assert.match(e.message, /team\.yaml:5:\d+.*agents/);
      assert.match(e.message, /team\.yaml:6:\d+.*max_stals.*max_stalls/s);
      return true;
    });
    const parsed = parseSupervisorConfig(GOOD);
    assert.equal(parsed.strategy, 'plan_and_execute');
    assert.equal(parsed.plannerModel, 'gpt-4o');
    assert.deepEqual(parsed.agents, ['./researcher.yaml', './writer.yaml']);
  });

  test('loadGraph builds the supervisor graph from agent files and runs it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentlib-supervisor-yaml-'));
    try {
      writeFileSync(join(dir, 'team.yaml'), GOOD);
      writeFileSync(join(dir, 'researcher.yaml'), 'name: researcher\nprovider: openai\nsystem_prompt: You research.\n');
      writeFileSync(join(dir, 'writer.yaml'), 'name: writer\nprovider: openai\nsystem_prompt: You write.\n');
      const provider = new ScriptedProvider({
        respond: (request) => {
          if (request.responseFormat !== undefined) return JSON.stringify({ steps: [{ agent: 'researcher', task: 'find facts' }, { agent: 'writer', task: 'write it up' }] });
          return request.system?.includes('You research') ? 'facts' : 'report';
        },
      });
      const graph = await loadGraph(join(dir, 'team.yaml'), { provider });
      assert.equal(graph.name, 'team');
      const result = SupervisorAgent.outcome(await graph.run('report on tides'));
      assert.equal(result.content, 'report');
      assert.deepEqual(result.turns.map((t) => t.agent), ['researcher', 'writer']);
      assert.equal(provider.requests[0]?.model, 'gpt-4o', 'planner_model');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
