export { AgentTrace, type AgentTraceInit, type StepFilter } from './agent-trace.js';
export { eventStep, type EventStepFields } from './event-steps.js';
export { parseTraceJSON, parseTraceJSONL, traceToJSONL } from './jsonl.js';
export { msToNanos, otelId, runSpanId, toOtelSpans, type OtelExportOptions } from './otel.js';
export {
  SpanKind,
  SpanStatusCode,
  spanAttribute,
  toOtlpTraceRequest,
  type OtelAttribute,
  type OtelAttributeValue,
  type OtelSpan,
  type OtlpTraceRequest,
  type PlainAttributeValue,
} from './otel-types.js';
export { TraceRecorder, type TraceRecorderOptions } from './recorder.js';
export { TraceFileWriter } from './trace-file-writer.js';
export { STEP_TYPES, StepType, isStepType } from './step-type.js';
export { DEFAULT_TOOL_RESULT_CHARS, truncateSummary } from './summary.js';
export { buildTimeline, formatTimeline, type TimelineEntry } from './timeline.js';
export { traceTotals, type TraceTotals } from './totals.js';
export type { TraceData } from './trace-data.js';
export { TraceFormatError } from '../core/errors/trace-format-error.js';
export {
  TRACE_VERSION,
  type AgentTraceJSON,
  type NestedRunInfo,
  type RunSummaryFields,
  type StepStatus,
  type TraceHeader,
  type TraceMessage,
  type TraceRunFields,
  type TraceStep,
  type TraceToolCall,
  type TraceUsage,
} from './trace-step.js';
export {
  alignToolCalls,
  diffTraces,
  toolCallSequence,
  type DiffToolCall,
  type DiffValue,
  type ToolCallDiffKind,
  type ToolCallDiffRow,
  type TraceDiff,
  type TraceDiffMetrics,
  type TraceDiffRun,
} from './diff.js';
export { buildStepTree, flattenStepTree, stepTreeOrder, type StepTreeEntry, type StepTreeNode } from './tree.js';
