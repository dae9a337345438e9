import { runStart, type TraceData } from './trace-data.js';
import type { TraceStep } from './trace-step.js';

/** One step of a trace in tree order (depth-first pre-order: parents before children, siblings by start). */
export interface StepTreeEntry {
  readonly step: TraceStep;
  /** Position in the pre-order list. */
  readonly index: number;
  /** 0 for a root, 1 for its children, … */
  readonly depth: number;
  /** Index of the parent entry, -1 for a root. */
  readonly parentIndex: number;
  /** Index just past the last descendant (`index + 1` for a leaf): the subtree is `[index, end)`. */
  readonly end: number;
}

/** A step with its children (steps whose `parentId` is this step), for tree views. */
export interface StepTreeNode {
  step: TraceStep;
  /** 0 for a root, 1 for its children, … */
  depth: number;
  /** Milliseconds from the run start to the step start. */
  offsetMs: number;
  /** Child steps, sorted by start (ties keep recording order). */
  children: StepTreeNode[];
}

/**
 * The steps of a trace as a forest through `parentId`, flattened in depth-first pre-order. Roots
 * are steps without a parent (or whose parent is not in the trace, or is the step itself);
 * children and roots are sorted by start time, ties in recording order. Every step appears exactly
 * once, even when malformed parent links form a cycle (those steps become roots) or ids repeat (a
 * repeated id's children hang under its first step). Iterative: any depth, O(n log n).
 */
export function stepTreeOrder(trace: TraceData): StepTreeEntry[] {
  const steps = trace.steps;
  // Positions sorted by start; Array.prototype.sort is stable, so ties keep recording order.
  const order = steps.map((_, i) => i).sort((x, y) => (steps[x] as TraceStep).startedAt - (steps[y] as TraceStep).startedAt);
  const firstById = new Map<string, number>();
  steps.forEach((step, i) => {
    if (!firstById.has(step.id)) firstById.set(step.id, i);
  });
  const children = new Map<number, number[]>();
  const roots: number[] = [];
  for (const i of order) {
    const step = steps[i] as TraceStep;
    const parent = step.parentId === undefined || step.parentId === step.id ? undefined : firstById.get(step.parentId);
    if (parent === undefined || parent === i) {
      roots.push(i);
      continue;
    }
    const list = children.get(parent);
    if (list) list.push(i);
    else children.set(parent, [i]);
  }

  const entries: StepTreeEntry[] = [];
  const placed = new Uint8Array(steps.length);
  const visit = (root: number): void => {
    // A frame with `exit` set closes the subtree of entry `exit` (fills in its `end`).
    const stack: { step: number; depth: number; parentIndex: number; exit?: number }[] = [{ step: root, depth: 0, parentIndex: -1 }];
    while (stack.length > 0) {
      const frame = stack.pop() as (typeof stack)[number];
      if (frame.exit !== undefined) {
        entries[frame.exit] = { ...(entries[frame.exit] as StepTreeEntry), end: entries.length };
        continue;
      }
      if (placed[frame.step] === 1) continue;
      placed[frame.step] = 1;
      const index = entries.length;
      entries.push({ step: steps[frame.step] as TraceStep, index, depth: frame.depth, parentIndex: frame.parentIndex, end: index + 1 });
      stack.push({ ...frame, exit: index });
      const kids = children.get(frame.step) ?? [];
      for (let k = kids.length - 1; k >= 0; k--) stack.push({ step: kids[k] as number, depth: frame.depth + 1, parentIndex: index });
    }
  };
  for (const root of roots) visit(root);
  // Steps caught in a parent cycle are unreachable from any root: shown as roots, by start.
  for (const i of order) if (placed[i] === 0) visit(i);
  return entries;
}

/**
 * The steps of a trace as a forest through `parentId` (see {@link stepTreeOrder} for the order and
 * how malformed links are handled), each node with its depth and offset from the run start.
 */
export function buildStepTree(trace: TraceData): StepTreeNode[] {
  const start = runStart(trace);
  const nodes: StepTreeNode[] = [];
  const forest: StepTreeNode[] = [];
  for (const entry of stepTreeOrder(trace)) {
    const node: StepTreeNode = { step: entry.step, depth: entry.depth, offsetMs: entry.step.startedAt - start, children: [] };
    nodes.push(node);
    if (entry.parentIndex < 0) forest.push(node);
    else nodes[entry.parentIndex]?.children.push(node);
  }
  return forest;
}

/** The nodes of a forest in depth-first pre-order (the order a tree view prints them). */
export function flattenStepTree(roots: readonly StepTreeNode[]): StepTreeNode[] {
  const out: StepTreeNode[] = [];
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as StepTreeNode;
    out.push(node);
    for (let k = node.children.length - 1; k >= 0; k--) stack.push(node.children[k] as StepTreeNode);
  }
  return out;
}
