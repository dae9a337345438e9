import { AgentTrace } from '../../../lib/trace/agent-trace.js';
import type { TraceStep } from '../../../lib/trace/trace-step.js';

export const T0 = 1_700_000_000_000;

/** A step with defaults for what the test does not care about. */
export function step(fields: Partial<TraceStep> & Pick<TraceStep, 'id' | 'type'>): TraceStep {
  const startedAt = fields.startedAt ?? T0;
  return { runId: 'r', startedAt, timestamp: new Date(startedAt).toISOString(), durationMs: 0, status: 'ok', ...fields };
}

/** A trace of `count` tool_execution steps named by `nameAt` (a 20,000-step trace is 20,000 tool calls). */
export function toolTrace(runId: string, count: number, nameAt: (index: number) => string): AgentTrace {
  const steps = Array.from({ length: count }, (_, i) => step({ id: `s${i}`, type: 'tool_execution', name: nameAt(i), startedAt: T0 + i, input: `{"i":${i % 10}}` }));
  return new AgentTrace({ runId, startedAt: T0, endedAt: T0 + count, steps });
}
