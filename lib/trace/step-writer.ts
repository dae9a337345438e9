import type { AgentEvent } from '../events/types.js';
import type { AgentTrace } from './agent-trace.js';
import type { EventStepFields } from './event-steps.js';
import type { RunTracker } from './run-tracker.js';
import { isoTimestamp, truncateSummary } from './summary.js';
import type { TraceMessage, TraceStep, TraceUsage } from './trace-step.js';

/** Step fields before the writer fills id, run, time and links (undefined values are dropped). */
export type StepDraft = Omit<EventStepFields, 'callId'> & {
  id?: string | undefined;
  parentId?: string | undefined;
  startedAt?: number;
  durationMs?: number;
  usage?: TraceUsage | undefined;
  costUsd?: number | undefined;
  reasoning?: string | undefined;
  /** An llm_call's message view (already capped and redacted); an empty list is dropped. */
  messages?: TraceMessage[] | undefined;
};

/**
 * Turns drafts into TraceSteps on a trace: assigns ids, start time (the event's, unless given), ISO
 * timestamp, truncated summaries, and links a nested run's top-level steps to the step it ran under.
 */
export class StepWriter {
  constructor(
    private readonly trace: AgentTrace,
    private readonly runs: RunTracker,
    /** Characters kept of each input/output summary. */
    readonly maxChars: number,
    /** A new step id. */
    readonly nextId: () => string,
    /** Called with each step once it is on the trace. */
    private readonly onStep?: (step: TraceStep) => void,
  ) {}

  /** Builds the step for `event` from `draft` and appends it to the trace. */
  add(event: AgentEvent, draft: StepDraft): TraceStep {
    const startedAt = draft.startedAt ?? event.timestamp;
    const step: TraceStep = {
      id: draft.id ?? this.nextId(),
      runId: event.runId,
      type: draft.type,
      startedAt,
      timestamp: isoTimestamp(startedAt),
      durationMs: Math.max(0, draft.durationMs ?? 0),
      status: draft.status ?? 'ok',
    };
    const parentId = draft.parentId ?? (event.runId === this.trace.runId ? undefined : this.runs.nestedRun(event.runId)?.parentStepId);
    if (parentId !== undefined) step.parentId = parentId;
    if (draft.name !== undefined) step.name = draft.name;
    if (draft.input !== undefined) step.input = truncateSummary(draft.input, this.maxChars);
    if (draft.messages !== undefined && draft.messages.length > 0) step.messages = draft.messages;
    if (draft.output !== undefined) step.output = truncateSummary(draft.output, this.maxChars);
    if (draft.usage !== undefined) step.usage = draft.usage;
    if (draft.costUsd !== undefined) step.costUsd = draft.costUsd;
    if (draft.reasoning !== undefined && draft.reasoning !== '') step.reasoning = draft.reasoning;
    if (draft.error !== undefined) step.error = draft.error;
    if (draft.metadata !== undefined) step.metadata = draft.metadata;
    this.trace.addStep(step);
    this.onStep?.(step);
    return step;
  }
}
