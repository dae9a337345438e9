import { STEP_TYPES, type StepType } from './step-type.js';
import type { TraceData } from './trace-data.js';
import { traceTotals } from './totals.js';

/** One side of a diff: what identifies the run. */
export interface TraceDiffRun {
  runId: string;
  agentName?: string;
  provider?: string;
  model?: string;
  status?: string;
}

/** A number on both sides and `b - a`. */
export interface DiffValue {
  a: number;
  b: number;
  delta: number;
}

/** The compared totals. */
export interface TraceDiffMetrics {
  durationMs: DiffValue;
  steps: DiffValue;
  llmCalls: DiffValue;
  toolCalls: DiffValue;
  errors: DiffValue;
  promptTokens: DiffValue;
  completionTokens: DiffValue;
  totalTokens: DiffValue;
  costUsd: DiffValue;
}

/** A tool call as compared: a `tool_execution` step. */
export interface DiffToolCall {
  name: string;
  /** The arguments as recorded (JSON summary). */
  input?: string;
  status: 'ok' | 'error';
  durationMs: number;
}

/**
 * How a position of the aligned tool call sequences compares:
 * `same` (same tool, arguments and status), `changed` (same tool, other arguments or status),
 * `replaced` (another tool at this position), `removed` (only in a), `added` (only in b).
 */
export type ToolCallDiffKind = 'same' | 'changed' | 'replaced' | 'removed' | 'added';

/** One row of the aligned tool call sequences. */
export interface ToolCallDiffRow {
  kind: ToolCallDiffKind;
  a?: DiffToolCall;
  b?: DiffToolCall;
}

/** A structured comparison of two traces (`diffTraces`). */
export interface TraceDiff {
  a: TraceDiffRun;
  b: TraceDiffRun;
  /** Whether the runs ended the same way. */
  sameStatus: boolean;
  metrics: TraceDiffMetrics;
  /** Step counts by type, for every type present in either trace (in StepType order). */
  stepsByType: Array<{ type: StepType } & DiffValue>;
  /** The tool calls of both runs in start order, aligned on tool names (longest common subsequence). */
  toolCalls: ToolCallDiffRow[];
  /** True when the status, step counts and tool call sequence are all the same. */
  sameShape: boolean;
}

const METRICS = ['durationMs', 'steps', 'llmCalls', 'toolCalls', 'errors', 'promptTokens', 'completionTokens', 'totalTokens', 'costUsd'] as const;

/**
 * Compares two traces: run fields, totals (duration, steps, tokens, cost), step counts by type and
 * the tool call sequences aligned side by side, each position marked same / changed / replaced /
 * removed / added.
 */
export function diffTraces(a: TraceData, b: TraceData): TraceDiff {
  const totalsA = traceTotals(a);
  const totalsB = traceTotals(b);
  const metrics = Object.fromEntries(METRICS.map((key) => [key, value(totalsA[key], totalsB[key], key === 'costUsd')])) as unknown as TraceDiffMetrics;
  const stepsByType = STEP_TYPES.filter((type) => totalsA.byType[type] !== undefined || totalsB.byType[type] !== undefined).map((type) => ({
    type,
    ...value(totalsA.byType[type] ?? 0, totalsB.byType[type] ?? 0),
  }));
  const toolCalls = alignToolCalls(toolCallSequence(a), toolCallSequence(b));
  const sameStatus = a.status === b.status;
  const sameShape = sameStatus && stepsByType.every((row) => row.delta === 0) && toolCalls.every((row) => row.kind === 'same');
  return { a: runOf(a), b: runOf(b), sameStatus, metrics, stepsByType, toolCalls, sameShape };
}

/** The `tool_execution` steps of a trace (nested runs included) in start order. */
export function toolCallSequence(trace: TraceData): DiffToolCall[] {
  return trace.steps
    .filter((step) => step.type === 'tool_execution')
    .map((step, index) => ({ step, index }))
    .sort((x, y) => x.step.startedAt - y.step.startedAt || x.index - y.index)
    .map(({ step }) => {
      const call: DiffToolCall = { name: step.name ?? '?', status: step.status, durationMs: step.durationMs };
      if (step.input !== undefined) call.input = step.input;
      return call;
    });
}

/**
 * Aligns two tool call sequences on tool names (longest common subsequence). Calls between two
 * anchors are paired position by position as `replaced`; the leftovers are `removed` / `added`.
 */
export function alignToolCalls(a: readonly DiffToolCall[], b: readonly DiffToolCall[]): ToolCallDiffRow[] {
  const n = a.length;
  const m = b.length;
  // lcs[i][j] = LCS length of a[i..] and b[j..]
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  const at = (i: number, j: number): number => lcs[i]?.[j] ?? 0;
  for (let i = n - 1; i >= 0; i--) {
    const row = lcs[i] as number[];
    for (let j = m - 1; j >= 0; j--) {
      row[j] = a[i]?.name === b[j]?.name ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const rows: ToolCallDiffRow[] = [];
  const gapA: DiffToolCall[] = [];
  const gapB: DiffToolCall[] = [];
  const flush = (): void => {
    const paired = Math.min(gapA.length, gapB.length);
    for (let k = 0; k < paired; k++) rows.push({ kind: 'replaced', a: gapA[k] as DiffToolCall, b: gapB[k] as DiffToolCall });
    for (const call of gapA.slice(paired)) rows.push({ kind: 'removed', a: call });
    for (const call of gapB.slice(paired)) rows.push({ kind: 'added', b: call });
    gapA.length = 0;
    gapB.length = 0;
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    const left = a[i];
    const right = b[j];
    if (left !== undefined && right !== undefined && left.name === right.name) {
      flush();
      const same = left.input === right.input && left.status === right.status;
      rows.push({ kind: same ? 'same' : 'changed', a: left, b: right });
      i++;
      j++;
    } else if (left !== undefined && (right === undefined || at(i + 1, j) >= at(i, j + 1))) {
      gapA.push(left);
      i++;
    } else if (right !== undefined) {
      gapB.push(right);
      j++;
    }
  }
  flush();
  return rows;
}

function value(a: number, b: number, money = false): DiffValue {
  const delta = b - a;
  // keep cost deltas free of float noise (1e-12 USD resolution)
  return { a, b, delta: money ? Math.round(delta * 1e12) / 1e12 : delta };
}

function runOf(trace: TraceData): TraceDiffRun {
  const run: TraceDiffRun = { runId: trace.runId };
  if (trace.agentName !== undefined) run.agentName = trace.agentName;
  if (trace.provider !== undefined) run.provider = trace.provider;
  if (trace.model !== undefined) run.model = trace.model;
  if (trace.status !== undefined) run.status = trace.status;
  return run;
}
