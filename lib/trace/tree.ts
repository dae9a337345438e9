import { runStart, type TraceData } from './trace-data.js';
import type { TraceStep } from './trace-step.js';

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
 * The steps of a trace as a forest through `parentId`: roots are steps without a parent (or whose
 * parent is not in the trace); children and roots are sorted by start time, ties in recording
 * order. Every step appears exactly once, even when malformed parent links form a cycle.
 */
export function buildStepTree(trace: TraceData): StepTreeNode[] {
  const start = runStart(trace);
  const ids = new Set(trace.steps.map((step) => step.id));
  const sorted = [...trace.steps].sort((a, b) => a.startedAt - b.startedAt);
  const children = new Map<string, TraceStep[]>();
  const roots: TraceStep[] = [];
  for (const step of sorted) {
    if (step.parentId !== undefined && step.parentId !== step.id && ids.has(step.parentId)) {
      const list = children.get(step.parentId) ?? [];
      list.push(step);
      children.set(step.parentId, list);
    } else {
      roots.push(step);
    }
  }
  const visited = new Set<TraceStep>();
  const visit = (step: TraceStep, depth: number): StepTreeNode => {
    visited.add(step);
    const node: StepTreeNode = { step, depth, offsetMs: step.startedAt - start, children: [] };
    for (const child of children.get(step.id) ?? []) {
      if (!visited.has(child)) node.children.push(visit(child, depth + 1));
    }
    return node;
  };
  const forest = roots.map((step) => visit(step, 0));
  // steps only reachable through a parent cycle: shown as roots
  for (const step of sorted) if (!visited.has(step)) forest.push(visit(step, 0));
  return forest;
}

/** The nodes of a forest in depth-first pre-order (the order a tree view prints them). */
export function flattenStepTree(roots: readonly StepTreeNode[]): StepTreeNode[] {
  const out: StepTreeNode[] = [];
  const walk = (nodes: readonly StepTreeNode[]): void => {
    for (const node of nodes) {
      out.push(node);
      walk(node.children);
    }
  };
  walk(roots);
  return out;
}
