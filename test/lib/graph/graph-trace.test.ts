import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import type { AgentEvent } from '../../../lib/events/types.js';
import { AgentGraph } from '../../../lib/graph/index.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { TraceRecorder } from '../../../lib/trace/recorder.js';
import { testRuntime } from '../../support/agent-harness.js';

describe('a graph run recorded as a trace', () => {
  test('node → nested agent run → llm_call; parallel members inside the parallel step; the 10 graph step types available', async () => {
    let recorder: TraceRecorder | undefined;
    const observer = {
      onEvent: (event: AgentEvent): void => {
        if (!recorder && event.type === 'graph-start') recorder = new TraceRecorder({ runId: event.runId });
        recorder?.handle(event);
      },
    };
    const writer = new Agent({ name: 'writer', provider: new ScriptedProvider({ replies: ['draft'] }), runtime: testRuntime() });
    const graph = new AgentGraph({ name: 'traced' })
      .addNode('write', writer, { next: 'team' })
      .addParallelNodes('team', { a: () => 'A', b: () => 'B' })
      .setEntry('write');
    await graph.run('go', { observers: [observer] });
    const steps = recorder?.trace.steps ?? [];
    const types = steps.map((s) => s.type);
    for (const t of ['graph_node_start', 'graph_node_end', 'graph_routing', 'graph_parallel_start', 'graph_parallel_end', 'llm_call'] as const) assert.ok(types.includes(t), t);
    const node = steps.find((s) => s.type === 'graph_node_start' && s.name === 'write');
    const llm = steps.find((s) => s.type === 'llm_call');
    assert.ok(node && llm);
    assert.equal(llm.parentId, node.id, 'the agent run hangs under its node');
    const parallel = steps.find((s) => s.type === 'graph_parallel_start');
    const member = steps.find((s) => s.type === 'graph_node_start' && s.name === 'a');
    assert.ok(parallel && member && member.startedAt >= parallel.startedAt);
  });

  test('parallel branches hang under their group, each nested agent run under its own node (not the latest one)', async () => {
    let recorder: TraceRecorder | undefined;
    const observer = {
      onEvent: (event: AgentEvent): void => {
        if (!recorder && event.type === 'graph-start') recorder = new TraceRecorder({ runId: event.runId });
        recorder?.handle(event);
      },
    };
    const runtime = testRuntime(); // one id sequence: the nested runs get distinct ids
    const agent = (name: string, reply: string): Agent => new Agent({ name, provider: new ScriptedProvider({ replies: [reply] }), runtime });
    const graph = new AgentGraph({ name: 'fan' })
      .addNode('write', agent('writer', 'draft'), { next: 'team' })
      .addParallelNodes('team', { critic: agent('critic-agent', 'critique'), facts: agent('facts-agent', 'checked') })
      .setEntry('write');
    await graph.run('go', { observers: [observer] });
    const steps = recorder?.trace.steps ?? [];
    const start = (name: string) => steps.find((s) => s.type === 'graph_node_start' && s.name === name);
    const team = start('team');
    const group = steps.find((s) => s.type === 'graph_parallel_start');
    assert.ok(team && group);
    assert.equal(group.parentId, team.id, 'the parallel group is inside its group node');
    for (const [member, reply] of [['critic', 'critique'], ['facts', 'checked']] as const) {
      const node = start(member);
      assert.ok(node, member);
      assert.equal(node.parentId, group.id, `${member} hangs under the parallel group`);
      const end = steps.find((s) => s.type === 'graph_node_end' && s.name === member);
      assert.equal(end?.parentId, group.id, `${member}'s end step sits beside its start`);
      const llm = steps.find((s) => s.type === 'llm_call' && s.output === reply);
      assert.ok(llm, reply);
      assert.equal(llm.parentId, node.id, `the agent of ${member} hangs under ${member}`);
    }
    assert.equal(start('write')?.parentId, undefined, 'a top-level node stays at the top');
  });
});
