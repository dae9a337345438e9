import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AgentGraph, MergePolicy } from '../../../lib/graph/index.js';
import { diagramNodes } from '../../../lib/graph/render/diagram-nodes.js';
import { locateBoxes, paintDiagram, type Segment } from '../../../tui/graph/diagram-paint.js';
import type { NodeStatus } from '../../../tui/graph/graph-view-state.js';

/** The drawing as rows of status letters: p(ending) r(unning) d(one) f(ailed) i(nterrupted), '.' unstyled. */
function statusMap(rows: Segment[][]): string[] {
  return rows.map((segments) => segments.map((s) => (s.status === undefined ? '.' : s.status.charAt(0)).repeat([...s.text].length)).join(''));
}

describe('colouring the drawing by node state', () => {
  test('each box (border and label) takes its node state; edges and START/END stay plain; members paint over their group', async () => {
    const graph = new AgentGraph({ name: 'g' })
      .addNode('plan', () => 'p', { next: 'team' })
      .addParallelNodes('team', { left: () => 'l', right: () => 'r' }, { merge: MergePolicy.APPEND })
      .setEntry('plan');
    const nodes = diagramNodes(graph.definition());
    const lines = (await graph.visualize('ascii', { spacing: 'compact' })).trimEnd().split('\n');
    const places = locateBoxes(lines, nodes);
    assert.deepEqual([...places.keys()].sort(), ['plan', 'team', 'team__left', 'team__right']);
    const states: Record<string, NodeStatus> = { plan: 'done', team: 'running', team__left: 'failed', team__right: 'running' };
    const map = statusMap(paintDiagram(lines, nodes, places, (key) => states[key] ?? 'pending'));
    const plan = places.get('plan');
    assert.ok(plan);
    // plan's three rows: exactly its box columns are 'd'.
    for (let r = plan.top; r <= plan.bottom; r += 1) {
      const row = map[r] as string;
      assert.equal(row.slice(plan.left, plan.right + 1), 'd'.repeat(plan.right - plan.left + 1), `row ${r}: ${lines[r]}`);
      assert.doesNotMatch(row.slice(0, plan.left) + row.slice(plan.right + 1), /[prfi]|d/, `nothing else on row ${r}`);
    }
    const left = places.get('team__left');
    const team = places.get('team');
    assert.ok(left && team);
    assert.equal((map[left.top + 1] as string)[left.left], 'f', 'the member colour wins inside the group');
    assert.equal((map[team.top] as string)[team.left], 'r', "the group's border");
    assert.equal((map[team.bottom] as string)[team.right], 'r');
    // START / END and the arrows are not nodes.
    const start = lines.findIndex((line) => line.includes('START'));
    assert.doesNotMatch(map[start] as string, /[prfid]/);
  });

  test('a label drawn twice is placed nowhere (two subgraphs with the same inner node names)', async () => {
    const child = (): AgentGraph => new AgentGraph({ name: 'child' }).addNode('check', () => 'c').setEntry('check');
    const graph = new AgentGraph({ name: 'g' }).addSubgraph('one', child(), { next: 'two' }).addSubgraph('two', child()).setEntry('one');
    const nodes = diagramNodes(graph.definition());
    const lines = (await graph.visualize('ascii', { spacing: 'compact' })).trimEnd().split('\n');
    const places = locateBoxes(lines, nodes);
    assert.ok(places.has('one') && places.has('two'));
    assert.ok(!places.has('one__check') && !places.has('two__check'));
  });
});
