import type { StepType } from './step-type.js';
import { runEnd, runStart, type TraceData } from './trace-data.js';

/** Sums over a trace. */
export interface TraceTotals {
  steps: number;
  /** Run duration (run start to end, or first step start to last step end). */
  durationMs: number;
  llmCalls: number;
  toolCalls: number;
  /** Steps with status `error`. */
  errors: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  costUsd: number;
  /** Number of steps of each type present. */
  byType: Partial<Record<StepType, number>>;
}

/** Token, cost, duration and count totals of a trace (tokens and cost from every step that carries them). */
export function traceTotals(trace: TraceData): TraceTotals {
  const totals: TraceTotals = {
    steps: trace.steps.length,
    durationMs: Math.max(0, runEnd(trace) - runStart(trace)),
    llmCalls: 0,
    toolCalls: 0,
    errors: 0,
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    costUsd: 0,
    byType: {},
  };
  for (const step of trace.steps) {
    totals.byType[step.type] = (totals.byType[step.type] ?? 0) + 1;
    if (step.type === 'llm_call') totals.llmCalls++;
    if (step.type === 'tool_execution') totals.toolCalls++;
    if (step.status === 'error') totals.errors++;
    if (step.usage) {
      totals.promptTokens += step.usage.promptTokens;
      totals.completionTokens += step.usage.completionTokens;
      totals.totalTokens += step.usage.totalTokens;
    }
    totals.costUsd += step.costUsd ?? 0;
  }
  return totals;
}
