import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AgentTrace } from '../../../lib/trace/agent-trace.js';
import { buildTreeModel, NO_FILTER, scrollIntoView, selectedRowIndex, visibleRows, type TreeFilter } from '../../../tui/trace-viewer/tree-model.js';
import { initialTreeState, reduceTree, type TreeAction, type TreeState } from '../../../tui/trace-viewer/tree-reducer.js';
import { bigTrace, sampleTrace, step, T0 } from './traces.js';

const ids = (rows: ReturnType<typeof visibleRows>): string[] => rows.map((row) => row.node.step.id);
const filter = (fields: Partial<TreeFilter>): TreeFilter => ({ ...NO_FILTER, ...fields });

describe('tree model', () => {
  test('pre-order with depth; siblings by start time, ties in recording order; unknown parents become roots', () => {
    const model = buildTreeModel(sampleTrace());
    assert.deepEqual(
      model.nodes.map((node) => [node.step.id, node.depth, node.end]),
      [['s1', 0, 4], ['s2', 1, 4], ['s4', 2, 3], ['s3', 2, 4], ['s5', 0, 5]],
    );
    assert.deepEqual(model.types, ['llm_call', 'tool_selection', 'tool_execution']);
    assert.equal(model.runStart, T0);
    assert.equal(model.runDurationMs, 400);

    const orphan = buildTreeModel(new AgentTrace({ runId: 'r', steps: [step({ id: 'a', type: 'llm_call', parentId: 'gone', startedAt: T0 + 5 }), step({ id: 'b', type: 'error', startedAt: T0 })] }));
    assert.deepEqual(orphan.nodes.map((node) => [node.step.id, node.depth]), [['b', 0], ['a', 0]]);
  });

  test('a parent cycle does not hang or drop steps', () => {
    const model = buildTreeModel(new AgentTrace({ runId: 'r', steps: [step({ id: 'a', type: 'llm_call', parentId: 'b' }), step({ id: 'b', type: 'llm_call', parentId: 'a' })] }));
    assert.deepEqual(model.nodes.map((node) => node.step.id).sort(), ['a', 'b']);
  });

  test('folding hides the subtree; the fold marker state is reported', () => {
    const model = buildTreeModel(sampleTrace());
    assert.deepEqual(ids(visibleRows(model, new Set(), NO_FILTER)), ['s1', 's2', 's4', 's3', 's5']);
    const rows = visibleRows(model, new Set(['s2']), NO_FILTER);
    assert.deepEqual(ids(rows), ['s1', 's2', 's5']);
    assert.deepEqual(rows.map((row) => [row.hasChildren, row.folded]), [[true, false], [true, true], [false, false]]);
    assert.deepEqual(ids(visibleRows(model, new Set(['s1', 's2']), NO_FILTER)), ['s1', 's5']);
  });

  test('filters keep matching steps and their ancestors (marked as context)', () => {
    const model = buildTreeModel(sampleTrace());
    const errors = visibleRows(model, new Set(), filter({ errorsOnly: true }));
    assert.deepEqual(ids(errors), ['s1', 's2', 's4']);
    assert.deepEqual(errors.map((row) => row.match), [false, false, true]);
    assert.deepEqual(ids(visibleRows(model, new Set(), filter({ type: 'llm_call' }))), ['s1', 's5']);
    assert.deepEqual(ids(visibleRows(model, new Set(), filter({ text: 'OULU' }))), ['s1', 's2', 's3', 's5'], 'text matches input, output, case-insensitive');
    assert.deepEqual(ids(visibleRows(model, new Set(), filter({ text: 'clock unavailable' }))), ['s1', 's2', 's4'], 'text matches error messages');
    assert.deepEqual(ids(visibleRows(model, new Set(), filter({ type: 'llm_call', errorsOnly: true }))), []);
  });

  test('the selection follows a step that was folded away to its folded ancestor', () => {
    const model = buildTreeModel(sampleTrace());
    const rows = visibleRows(model, new Set(['s1']), NO_FILTER);
    assert.equal(selectedRowIndex(model, rows, 's3'), 0);
    assert.equal(selectedRowIndex(model, visibleRows(model, new Set(), filter({ type: 'llm_call' })), 's3'), 1, 'filtered out: the next row');
    assert.equal(selectedRowIndex(model, [], 's3'), -1);
  });

  test('scrollIntoView scrolls as little as possible and stays in range', () => {
    assert.equal(scrollIntoView(0, 5, 10, 100), 0);
    assert.equal(scrollIntoView(0, 10, 10, 100), 1);
    assert.equal(scrollIntoView(20, 5, 10, 100), 5);
    assert.equal(scrollIntoView(95, 99, 10, 100), 90);
    assert.equal(scrollIntoView(0, 3, 10, 4), 0);
  });
});

describe('tree reducer', () => {
  const run = (model: ReturnType<typeof buildTreeModel>, actions: TreeAction[], height = 10): TreeState =>
    actions.reduce((state, action) => reduceTree(model, state, action, height), initialTreeState(model));

  test('moves clamp at both ends; Home / End / page', () => {
    const model = buildTreeModel(sampleTrace());
    assert.equal(run(model, [{ type: 'move', delta: -1 }]).selectedId, 's1');
    assert.equal(run(model, [{ type: 'move', delta: 2 }]).selectedId, 's4');
    assert.equal(run(model, [{ type: 'end' }]).selectedId, 's5');
    assert.equal(run(model, [{ type: 'end' }, { type: 'home' }]).selectedId, 's1');
    assert.equal(run(model, [{ type: 'page', direction: 1 }], 3).selectedId, 's4', 'a page is height - 1 rows');
  });

  test('left folds, then goes to the parent; right unfolds, then goes to the first child; Enter toggles', () => {
    const model = buildTreeModel(sampleTrace());
    let state = run(model, [{ type: 'move', delta: 1 }, { type: 'fold' }]);
    assert.deepEqual([...state.folded], ['s2']);
    state = reduceTree(model, state, { type: 'fold' }, 10);
    assert.equal(state.selectedId, 's1', 'left on a folded node selects its parent');
    state = reduceTree(model, state, { type: 'toggle' }, 10);
    assert.deepEqual(ids(visibleRows(model, state.folded, state.filter)), ['s1', 's5']);
    state = reduceTree(model, state, { type: 'unfold' }, 10);
    assert.deepEqual([...state.folded], ['s2']);
    state = reduceTree(model, state, { type: 'unfold' }, 10);
    assert.equal(state.selectedId, 's2', 'right on an open node selects its first child');
    const leaf = run(model, [{ type: 'end' }, { type: 'toggle' }, { type: 'unfold' }]);
    assert.equal(leaf.folded.size, 0, 'a leaf has nothing to fold');
  });

  test('filters keep the selection on a visible row; t cycles through the types present and back to all', () => {
    const model = buildTreeModel(sampleTrace());
    const errors = run(model, [{ type: 'end' }, { type: 'toggle-errors' }]);
    assert.equal(errors.selectedId, 's4', 'the last step was filtered out: the selection moves to a shown row');
    const types: (string | undefined)[] = [];
    let state = initialTreeState(model);
    for (let i = 0; i < 4; i++) {
      state = reduceTree(model, state, { type: 'cycle-type' }, 10);
      types.push(state.filter.type);
    }
    assert.deepEqual(types, ['llm_call', 'tool_selection', 'tool_execution', undefined]);
    assert.equal(run(model, [{ type: 'set-text', text: 'get_time' }, { type: 'end' }]).selectedId, 's4');
  });

  test('the window scrolls with the selection over a 1,000-step trace', () => {
    const model = buildTreeModel(bigTrace());
    assert.equal(model.nodes.length, 1000);
    let state = run(model, [{ type: 'end' }], 20);
    assert.equal(state.selectedId, 'step_1000');
    assert.equal(state.top, 980);
    state = reduceTree(model, state, { type: 'page', direction: -1 }, 20);
    assert.deepEqual([state.selectedId, state.top], ['step_981', 980], 'the selection moves a page; the window stays while it is in view');
    state = reduceTree(model, state, { type: 'page', direction: -1 }, 20);
    assert.deepEqual([state.selectedId, state.top], ['step_962', 961]);
    state = reduceTree(model, state, { type: 'home' }, 20);
    assert.equal(state.top, 0);
  });
});
