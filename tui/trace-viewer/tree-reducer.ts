import { NO_FILTER, scrollIntoView, selectedRowIndex, visibleRows, type TreeFilter, type TreeModel, type VisibleRow } from './tree-model.js';

/** Selection, folding, filter and scroll position of the step list. */
export interface TreeState {
  readonly folded: ReadonlySet<string>;
  readonly selectedId: string | undefined;
  /** First row shown. */
  readonly top: number;
  readonly filter: TreeFilter;
}

/** What the keys do to the step list. */
export type TreeAction =
  | { type: 'move'; delta: number }
  | { type: 'page'; direction: 1 | -1 }
  | { type: 'home' }
  | { type: 'end' }
  | { type: 'fold' }
  | { type: 'unfold' }
  | { type: 'toggle' }
  | { type: 'toggle-errors' }
  | { type: 'cycle-type' }
  | { type: 'set-text'; text: string };

/** Nothing folded, nothing filtered, the first step selected. */
export function initialTreeState(model: TreeModel): TreeState {
  return { folded: new Set(), selectedId: model.nodes[0]?.step.id, top: 0, filter: NO_FILTER };
}

/** The next state after `action`, with the selection on a visible row and scrolled into a window of `height` rows. */
export function reduceTree(model: TreeModel, state: TreeState, action: TreeAction, height: number): TreeState {
  const rows = visibleRows(model, state.folded, state.filter);
  const current = selectedRowIndex(model, rows, state.selectedId);
  const page = Math.max(1, height - 1);
  switch (action.type) {
    case 'move':
      return select(model, state, rows, current + action.delta, height);
    case 'page':
      return select(model, state, rows, current + action.direction * page, height);
    case 'home':
      return select(model, state, rows, 0, height);
    case 'end':
      return select(model, state, rows, rows.length - 1, height);
    case 'fold': {
      const row = rows[current];
      if (!row) return state;
      if (row.hasChildren && !row.folded) return settle(model, { ...state, folded: withId(state.folded, row.node.step.id, true) }, height);
      const parent = model.nodes[row.node.parentIndex];
      return parent ? settle(model, { ...state, selectedId: parent.step.id }, height) : state;
    }
    case 'unfold': {
      const row = rows[current];
      if (!row?.hasChildren) return state;
      if (row.folded) return settle(model, { ...state, folded: withId(state.folded, row.node.step.id, false) }, height);
      return select(model, state, rows, current + 1, height);
    }
    case 'toggle': {
      const row = rows[current];
      if (!row?.hasChildren) return state;
      return settle(model, { ...state, folded: withId(state.folded, row.node.step.id, !row.folded) }, height);
    }
    case 'toggle-errors':
      return settle(model, { ...state, filter: { ...state.filter, errorsOnly: !state.filter.errorsOnly } }, height);
    case 'cycle-type': {
      const at = state.filter.type === undefined ? -1 : model.types.indexOf(state.filter.type);
      const type = at + 1 < model.types.length ? model.types[at + 1] : undefined;
      return settle(model, { ...state, filter: { ...state.filter, type } }, height);
    }
    case 'set-text':
      return settle(model, { ...state, filter: { ...state.filter, text: action.text } }, height);
  }
}

function select(model: TreeModel, state: TreeState, rows: readonly VisibleRow[], index: number, height: number): TreeState {
  if (rows.length === 0) return state;
  const clamped = Math.max(0, Math.min(rows.length - 1, index));
  return { ...state, selectedId: rows[clamped]!.node.step.id, top: scrollIntoView(state.top, clamped, height, rows.length) };
}

/** Re-resolves the selection against the new rows (it may have been folded or filtered away). */
function settle(model: TreeModel, state: TreeState, height: number): TreeState {
  const rows = visibleRows(model, state.folded, state.filter);
  const index = selectedRowIndex(model, rows, state.selectedId);
  if (index < 0) return { ...state, top: 0 };
  return { ...state, selectedId: rows[index]!.node.step.id, top: scrollIntoView(state.top, index, height, rows.length) };
}

function withId(set: ReadonlySet<string>, id: string, present: boolean): ReadonlySet<string> {
  const next = new Set(set);
  if (present) next.add(id);
  else next.delete(id);
  return next;
}
