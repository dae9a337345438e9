import type { TraceRunFields, TraceStep } from './trace-step.js';

/** What the trace views (timeline, totals, OTel export) read: run fields plus steps. */
export interface TraceData extends TraceRunFields {
  readonly steps: readonly TraceStep[];
}

/** End of a step in ms since the epoch. */
export function stepEnd(step: TraceStep): number {
  return step.startedAt + step.durationMs;
}

/** The run's start: `startedAt` when recorded, else the earliest step start (0 for an empty trace). */
export function runStart(trace: TraceData): number {
  if (trace.startedAt !== undefined) return trace.startedAt;
  let min = Infinity;
  for (const step of trace.steps) min = Math.min(min, step.startedAt);
  return Number.isFinite(min) ? min : 0;
}

/** The run's end: `endedAt` when recorded, else the latest step end (the start for an empty trace). */
export function runEnd(trace: TraceData): number {
  if (trace.endedAt !== undefined) return trace.endedAt;
  let max = runStart(trace);
  for (const step of trace.steps) max = Math.max(max, stepEnd(step));
  return max;
}
