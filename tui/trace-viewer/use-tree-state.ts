import { useCallback, useMemo, useState } from 'react';
import { scrollIntoView, selectedRowIndex, visibleRows, type TreeModel, type VisibleRow } from './tree-model.js';
import { initialTreeState, reduceTree, type TreeAction, type TreeState } from './tree-reducer.js';

/** The step list's state for a window of `height` rows: visible rows, selected row and scroll position. */
export interface TreeView {
  state: TreeState;
  rows: readonly VisibleRow[];
  /** Row index of the selection (-1 when nothing is shown). */
  selected: number;
  /** First row of the window. */
  top: number;
  dispatch: (action: TreeAction) => void;
}

/** Selection, folding and filtering of the step tree (the logic lives in tree-reducer.ts). */
export function useTreeState(model: TreeModel, height: number): TreeView {
  const [state, setState] = useState(() => initialTreeState(model));
  const dispatch = useCallback((action: TreeAction) => setState((current) => reduceTree(model, current, action, height)), [model, height]);
  const rows = useMemo(() => visibleRows(model, state.folded, state.filter), [model, state.folded, state.filter]);
  const selected = selectedRowIndex(model, rows, state.selectedId);
  // Re-clamped on every render, so a resize keeps the selection in the window.
  const top = scrollIntoView(state.top, selected, height, rows.length);
  return { state, rows, selected, top, dispatch };
}
