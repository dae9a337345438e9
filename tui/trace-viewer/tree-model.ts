import { STEP_TYPES, type StepType } from '../../lib/trace/step-type.js';
import { runEnd, runStart, type TraceData } from '../../lib/trace/trace-data.js';
import type { TraceStep } from '../../lib/trace/trace-step.js';
import { stepTreeOrder, type StepTreeEntry } from '../../lib/trace/tree.js';

/** One step in the tree, in pre-order (parents before children, siblings by start time); see `stepTreeOrder`. */
export type TreeNode = StepTreeEntry;

/** The trace as a pre-ordered tree; built once per trace. */
export interface TreeModel {
  readonly nodes: readonly TreeNode[];
  readonly indexById: ReadonlyMap<string, number>;
  /** Step types present in the trace, in the spec's order (what `t` cycles through). */
  readonly types: readonly StepType[];
  readonly runStart: number;
  readonly runDurationMs: number;
}

/** What the rows are filtered by. A row shows when it matches, or when a descendant matches. */
export interface TreeFilter {
  readonly errorsOnly: boolean;
  readonly type: StepType | undefined;
  /** Case-insensitive text searched in type, name, id, input, output, reasoning, error and message texts. */
  readonly text: string;
}

/** A row of the visible list. */
export interface VisibleRow {
  readonly node: TreeNode;
  /** Has children shown under the current filter (folded or not). */
  readonly hasChildren: boolean;
  readonly folded: boolean;
  /** Matches the filter itself (false for ancestors kept only for context). */
  readonly match: boolean;
}

export const NO_FILTER: TreeFilter = { errorsOnly: false, type: undefined, text: '' };

/** Builds the tree (`stepTreeOrder` of lib/trace: a step hangs under its `parentId` when that step exists, else it is a root). */
export function buildTreeModel(trace: TraceData): TreeModel {
  const nodes = stepTreeOrder(trace);
  const indexById = new Map<string, number>();
  for (const node of nodes) if (!indexById.has(node.step.id)) indexById.set(node.step.id, node.index);
  const present = new Set(trace.steps.map((step) => step.type));
  const start = runStart(trace);
  return {
    nodes,
    indexById,
    types: STEP_TYPES.filter((type) => present.has(type)),
    runStart: start,
    runDurationMs: Math.max(0, runEnd(trace) - start),
  };
}

/** Whether a filter selects anything less than everything. */
export function isFiltering(filter: TreeFilter): boolean {
  return filter.errorsOnly || filter.type !== undefined || filter.text !== '';
}

/** Whether a step matches the filter on its own. */
export function stepMatches(step: TraceStep, filter: TreeFilter): boolean {
  if (filter.errorsOnly && step.status !== 'error') return false;
  if (filter.type !== undefined && step.type !== filter.type) return false;
  if (filter.text !== '') {
    const needle = filter.text.toLowerCase();
    const fields = [step.type, step.name, step.id, step.input, step.output, step.reasoning, step.error?.name, step.error?.message];
    const found = (field: string | undefined): boolean => field !== undefined && field.toLowerCase().includes(needle);
    if (!fields.some(found) && !(step.messages ?? []).some((message) => found(message.content))) return false;
  }
  return true;
}

/**
 * The rows to show: pre-order, skipping the subtrees of folded nodes; under a filter, only the
 * matching steps and their ancestors. O(steps).
 */
export function visibleRows(model: TreeModel, folded: ReadonlySet<string>, filter: TreeFilter): VisibleRow[] {
  const { nodes } = model;
  const filtering = isFiltering(filter);
  let keep: Uint8Array | undefined;
  let match: Uint8Array | undefined;
  let keptChild: Uint8Array | undefined;
  if (filtering) {
    keep = new Uint8Array(nodes.length);
    match = new Uint8Array(nodes.length);
    keptChild = new Uint8Array(nodes.length);
    for (let i = nodes.length - 1; i >= 0; i--) {
      const node = nodes[i]!;
      if (stepMatches(node.step, filter)) match[i] = keep[i] = 1;
      if (keep[i] && node.parentIndex >= 0) keep[node.parentIndex] = keptChild[node.parentIndex] = 1;
    }
  }
  const rows: VisibleRow[] = [];
  let i = 0;
  while (i < nodes.length) {
    const node = nodes[i]!;
    if (keep && !keep[i]) {
      i = node.end;
      continue;
    }
    const hasChildren = keptChild ? keptChild[i] === 1 : node.end > i + 1;
    const isFolded = hasChildren && folded.has(node.step.id);
    rows.push({ node, hasChildren, folded: isFolded, match: match ? match[i] === 1 : true });
    i = isFolded ? node.end : i + 1;
  }
  return rows;
}

/**
 * The row index of the selection: the row of `selectedId`, else the first row after where that step
 * would be (it was filtered out or folded away), else the last row; -1 when there are no rows.
 */
export function selectedRowIndex(model: TreeModel, rows: readonly VisibleRow[], selectedId: string | undefined): number {
  if (rows.length === 0) return -1;
  const target = selectedId === undefined ? undefined : model.indexById.get(selectedId);
  if (target === undefined) return 0;
  // Rows are in pre-order, so node indexes increase: binary search for the first row at or after it.
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.node.index < target) lo = mid + 1;
    else hi = mid;
  }
  if (lo < rows.length && rows[lo]!.node.index === target) return lo;
  // Folded away: the folded ancestor is the row just before.
  const before = rows[lo - 1];
  if (before?.folded && target < before.node.end) return lo - 1;
  return Math.min(lo, rows.length - 1);
}

/** The first row to show so that `selected` is inside a window of `height` rows, scrolling as little as possible. */
export function scrollIntoView(top: number, selected: number, height: number, total: number): number {
  if (height <= 0 || total <= 0) return 0;
  let next = top;
  if (selected >= 0 && selected < next) next = selected;
  if (selected >= next + height) next = selected - height + 1;
  return Math.max(0, Math.min(next, Math.max(0, total - height)));
}
