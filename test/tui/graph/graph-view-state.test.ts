import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import type { AgentEvent } from '../../../lib/events/types.js';
import { AgentGraph, ErrorPolicy } from '../../../lib/graph/index.js';
import { NODE_GLYPHS } from '../../../tui/graph/graph-theme.js';
import { diagramNodes } from '../../../lib/graph/render/diagram-nodes.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { activityText, graphViewReducer, initialGraphView, type GraphViewState } from '../../../tui/graph/graph-view-state.js';
import { testRuntime } from '../../support/agent-harness.js';
import { multiplyTool } from '../chat/helpers.js';

async function eventsOf(graph: AgentGraph): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of graph.stream('go')) events.push(event);
  return events;
}

/** Folds events one by one, calling `at` after each. */
function fold(graph: AgentGraph, events: readonly AgentEvent[], at: (state: GraphViewState, event: AgentEvent) => void = () => undefined): GraphViewState {
  let state = initialGraphView(graph.name, diagramNodes(graph.definition()));
  for (const event of events) {
    state = graphViewReducer(state, { type: 'events', events: [event] });
    at(state, event);
  }
  return state;
}

describe('the graph view state (events → node states)', () => {
  test('parallel members run side by side under their group; a subgraph run maps to its inner nodes', async () => {
    const child = new AgentGraph({ name: 'child' }).addNode('check', () => 'c').setEntry('check');
    const graph = new AgentGraph({ name: 'g' }).addParallelNodes('team', { a: () => 'A', b: () => 'B' }, { next: 'rev' }).addSubgraph('rev', child).setEntry('team');
    const seen: string[][] = [];
    const final = fold(graph, await eventsOf(graph), (state) => {
      const running = state.running.join(',');
      if (seen.at(-1)?.join(',') !== running) seen.push([...state.running]);
    });
    assert.ok(seen.some((r) => r.join(',') === 'team,team__a,team__b'), `both branches at once: ${JSON.stringify(seen)}`);
    assert.ok(seen.some((r) => r.join(',') === 'rev,rev__check'), `the subgraph's node under it: ${JSON.stringify(seen)}`);
    assert.deepEqual(Object.fromEntries(Object.entries(final.nodes).map(([k, v]) => [k, v.status])), { team: 'done', team__a: 'done', team__b: 'done', rev: 'done', rev__check: 'done' });
    assert.deepEqual(final.running, []);
  });

  test("an agent node's streamed text, tool cards and tokens are the node's activity (escapes removed)", async () => {
    const provider = new ScriptedProvider({
      replies: [
        { text: '', toolCalls: [{ toolName: 'multiply', parameters: { a: 6, b: 7 } }], usage: { promptTokens: 10, completionTokens: 2 } },
        { text: 'all \u001b]0;owned\u0007done', usage: { promptTokens: 20, completionTokens: 3 } },
      ],
    });
    const writer = new Agent({ name: 'writer', provider, tools: [multiplyTool()], runtime: testRuntime() });
    const graph = new AgentGraph({ name: 'w' }).addNode('write', writer).setEntry('write');
    let during: GraphViewState | undefined;
    const final = fold(graph, await eventsOf(graph), (state, event) => {
      if (event.type === 'run-end') during = state;
    });
    const activity = during?.activity.write;
    assert.ok(activity);
    assert.equal(activityText(activity), 'all done');
    assert.deepEqual(activity?.tools.map((t) => [t.toolName, t.status, t.output]), [['multiply', 'success', '42']]);
    assert.equal(final.tokens, 35);
    assert.equal(final.nodes.write?.status, 'done');
  });

  test('the run ending leaves no node running: interrupted ones wait, others of a failed run fail', () => {
    const graph = new AgentGraph({ name: 'x' }).addParallelNodes('team', { a: () => 'A' }).setEntry('team');
    let state = initialGraphView('x', diagramNodes(graph.definition()));
    const base = { runId: 'r1', timestamp: 1 };
    state = graphViewReducer(state, { type: 'events', events: [{ ...base, type: 'graph-start', graph: 'x', entry: 'team' }, { ...base, type: 'node-start', graph: 'x', node: 'team', step: 1 }, { ...base, type: 'graph-interrupt', graph: 'x', node: 'a', interruptId: 't:1', prompt: 'ok?' }] });
    assert.deepEqual(state.questions, [{ interruptId: 't:1', node: 'team__a', prompt: 'ok?' }]);
    const waiting = graphViewReducer(state, { type: 'finished', status: 'interrupted' });
    assert.equal(waiting.nodes.team?.status, 'interrupted');
    assert.equal(waiting.nodes.team__a?.status, 'interrupted');
    const answered = graphViewReducer(waiting, { type: 'answered', interruptId: 't:1' });
    assert.deepEqual(answered.questions, []);
    assert.equal(answered.outcome, undefined);
    assert.equal(graphViewReducer(state, { type: 'finished', status: 'error' }).nodes.team?.status, 'failed');
  });
  test('a resumed or forked run starts with the nodes of its checkpoint history done (top level only, counted), the rest pending', () => {
    const child = new AgentGraph({ name: 'child' }).addNode('check', () => 'c').setEntry('check');
    const graph = new AgentGraph({ name: 'g' })
      .addNode('draft', () => 'd', { next: 'review' })
      .addSubgraph('review', child, { next: 'publish' })
      .addNode('publish', () => 'p')
      .setEntry('draft');
    const state = initialGraphView('g', diagramNodes(graph.definition()), ['draft', 'draft', 'review', 'check', 'unknown']);
    assert.deepEqual(state.nodes.draft, { status: 'done', runs: 2 });
    assert.deepEqual(state.nodes.review, { status: 'done', runs: 1 });
    assert.equal(state.nodes.review__check?.status, 'pending', 'a name of the history is a top-level node');
    assert.equal(state.nodes.publish?.status, 'pending');
    assert.deepEqual(initialGraphView('g', diagramNodes(graph.definition())).nodes.draft, { status: 'pending', runs: 0 });
  });
  test('a node that failed under ErrorPolicy SKIP ends skipped, not done; the run goes on to its successor', async () => {
    const graph = new AgentGraph({ name: 'g' })
      .addNode('flaky', () => {
        throw new Error('down');
      }, { errorPolicy: ErrorPolicy.SKIP, next: 'after' })
      .addNode('after', () => 'ok')
      .setEntry('flaky');
    const state = fold(graph, await eventsOf(graph));
    assert.equal(state.nodes.flaky?.status, 'skipped');
    assert.equal(state.nodes.after?.status, 'done');
    assert.equal(NODE_GLYPHS.skipped, '↷');
  });
});
