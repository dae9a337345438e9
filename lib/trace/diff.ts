import { longestCommonSubsequence } from './lcs.js';
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
  /** Set when the trace ends early (its run never finished writing it). */
  incomplete?: true;
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
  /** The tool calls of both runs in start order, aligned on tool names (longest common subsequence; see `alignToolCalls`). */
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
  const sameStatus = a.status === b.status && a.incomplete === b.incomplete;
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
 * Aligns two tool call sequences on tool names (longest common subsequence, in linear memory: see
 * `longestCommonSubsequence`). Calls between two anchors are paired position by position as
 * `replaced` (or `same` / `changed` when the names agree, which only happens where very different
 * sequences made the alignment settle for less than the longest); the leftovers are `removed` / `added`.
 */
export function alignToolCalls(a: readonly DiffToolCall[], b: readonly DiffToolCall[]): ToolCallDiffRow[] {
  const codes = new Map<string, number>();
  const code = (call: DiffToolCall): number => {
    let value = codes.get(call.name);
    if (value === undefined) codes.set(call.name, (value = codes.size));
    return value;
  };
  const anchors = longestCommonSubsequence(Int32Array.from(a, code), Int32Array.from(b, code));
  const rows: ToolCallDiffRow[] = [];
  const pair = (left: DiffToolCall, right: DiffToolCall): void => {
    const kind = left.name !== right.name ? 'replaced' : left.input === right.input && left.status === right.status ? 'same' : 'changed';
    rows.push({ kind, a: left, b: right });
  };
  let i = 0;
  let j = 0;
  const gapUntil = (iEnd: number, jEnd: number): void => {
    const paired = Math.min(iEnd - i, jEnd - j);
    for (let k = 0; k < paired; k++) pair(a[i + k] as DiffToolCall, b[j + k] as DiffToolCall);
    for (let k = i + paired; k < iEnd; k++) rows.push({ kind: 'removed', a: a[k] as DiffToolCall });
    for (let k = j + paired; k < jEnd; k++) rows.push({ kind: 'added', b: b[k] as DiffToolCall });
    i = iEnd;
    j = jEnd;
  };
  for (const [ai, bi] of anchors) {
    gapUntil(ai, bi);
    pair(a[i++] as DiffToolCall, b[j++] as DiffToolCall);
  }
  gapUntil(a.length, b.length);
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
  if (trace.incomplete === true) run.incomplete = true;
  return run;
}
