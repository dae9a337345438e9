import { createHash } from 'node:crypto';
import {
  SpanKind,
  SpanStatusCode,
  toAttributeValue,
  type OtelAttribute,
  type OtelSpan,
  type PlainAttributeValue,
} from './otel-types.js';
import { runEnd, runStart, stepEnd, type TraceData } from './trace-data.js';
import type { SerializedError } from '../events/serialized-error.js';
import type { NestedRunInfo, TraceStep } from './trace-step.js';

/** Options of `toOtelSpans`. */
export interface OtelExportOptions {
  /**
   * The trace id: 32 hex characters are used as given, any other string is hashed. Default: derived
   * from `parentRunId ?? runId`, so a run and its direct nested runs exported separately share one id.
   */
  traceId?: string;
}

/** A deterministic lowercase hex id of `length` characters derived from `value`. */
export function otelId(kind: 'trace' | 'run' | 'step', value: string, length: 16 | 32): string {
  return createHash('sha256').update(`${kind}:${value}`).digest('hex').slice(0, length);
}

/** The span id of a run's `invoke_agent` span (stable, so traces exported separately link up). */
export function runSpanId(runId: string): string {
  return otelId('run', runId, 16);
}

/**
 * Converts a trace to OTLP/JSON spans with the OpenTelemetry GenAI semantic-convention attributes:
 * one `invoke_agent` root span per run (nested runs included), `chat <model>` spans for llm_call
 * steps, `execute_tool <tool>` spans for tool_execution steps and a span per other step (named by
 * its step type). Span ids are derived from run and step ids, so the export is deterministic.
 */
export function toOtelSpans(trace: TraceData, options: OtelExportOptions = {}): OtelSpan[] {
  const traceId = resolveTraceId(options.traceId ?? trace.parentRunId ?? trace.runId);
  const byId = new Map<string, TraceStep>();
  for (const step of trace.steps) byId.set(step.id, step);
  const spans: OtelSpan[] = [rootSpan(trace, traceId)];
  for (const run of nestedRuns(trace)) spans.push(nestedRunSpan(run, trace, byId, traceId));
  for (const step of trace.steps) spans.push(stepSpan(step, byId, traceId));
  return spans;
}

function resolveTraceId(value: string): string {
  return /^[0-9a-f]{32}$/.test(value) ? value : otelId('trace', value, 32);
}

function rootSpan(trace: TraceData, traceId: string): OtelSpan {
  const attributes = attrs({
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': trace.agentName,
    'gen_ai.provider.name': trace.provider,
    'gen_ai.request.model': trace.model,
    'agentlib.run.id': trace.runId,
    'agentlib.parent_run.id': trace.parentRunId,
    'agentlib.run.status': trace.status,
  });
  const span = baseSpan(traceId, runSpanId(trace.runId), invokeName(trace.agentName), SpanKind.INTERNAL, runStart(trace), runEnd(trace), attributes);
  if (trace.parentRunId !== undefined) span.parentSpanId = runSpanId(trace.parentRunId);
  if (trace.status === 'error') span.status = { code: SpanStatusCode.ERROR, message: 'run failed' };
  return span;
}

/** Nested runs listed in the trace plus any run id seen only on steps. */
function nestedRuns(trace: TraceData): NestedRunInfo[] {
  const runs = new Map<string, NestedRunInfo>();
  for (const run of trace.nestedRuns) runs.set(run.runId, run);
  for (const step of trace.steps) {
    if (step.runId !== trace.runId && !runs.has(step.runId)) runs.set(step.runId, { runId: step.runId, parentRunId: trace.runId });
  }
  return [...runs.values()];
}

function nestedRunSpan(run: NestedRunInfo, trace: TraceData, byId: ReadonlyMap<string, TraceStep>, traceId: string): OtelSpan {
  let first = Infinity;
  let last = -Infinity;
  for (const step of trace.steps) {
    if (step.runId !== run.runId) continue;
    first = Math.min(first, step.startedAt);
    last = Math.max(last, stepEnd(step));
  }
  const start = run.startedAt ?? first;
  const end = run.endedAt ?? last;
  const safeStart = Number.isFinite(start) ? start : runStart(trace);
  const attributes = attrs({
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': run.agentName,
    'gen_ai.provider.name': run.provider,
    'gen_ai.request.model': run.model,
    'agentlib.run.id': run.runId,
    'agentlib.parent_run.id': run.parentRunId,
    'agentlib.run.status': run.status,
  });
  const span = baseSpan(traceId, runSpanId(run.runId), invokeName(run.agentName), SpanKind.INTERNAL, safeStart, Number.isFinite(end) ? end : safeStart, attributes);
  const anchor = run.parentStepId === undefined ? undefined : byId.get(run.parentStepId);
  span.parentSpanId = anchor ? stepSpanId(anchor) : runSpanId(run.parentRunId);
  if (run.status === 'error') span.status = { code: SpanStatusCode.ERROR, message: 'run failed' };
  return span;
}

function stepSpan(step: TraceStep, byId: ReadonlyMap<string, TraceStep>, traceId: string): OtelSpan {
  const meta = step.metadata ?? {};
  const common = { 'agentlib.step.id': step.id, 'agentlib.step.type': step.type, 'agentlib.run.id': step.runId };
  let span: OtelSpan;
  if (step.type === 'llm_call') {
    const finish = meta['finishReason'];
    const attributes = attrs({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': stringOf(meta['provider']),
      'gen_ai.request.model': step.name,
      'gen_ai.usage.input_tokens': step.usage?.promptTokens,
      'gen_ai.usage.output_tokens': step.usage?.completionTokens,
      'gen_ai.response.finish_reasons': typeof finish === 'string' ? [finish] : undefined,
      'agentlib.cost_usd': step.costUsd,
      ...common,
    });
    span = baseSpan(traceId, stepSpanId(step), step.name ? `chat ${step.name}` : 'chat', SpanKind.CLIENT, step.startedAt, stepEnd(step), attributes);
  } else if (step.type === 'tool_execution') {
    const attributes = attrs({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': step.name,
      'gen_ai.tool.call.id': stringOf(meta['callId']),
      'gen_ai.tool.type': 'function',
      ...common,
    });
    span = baseSpan(traceId, stepSpanId(step), step.name ? `execute_tool ${step.name}` : 'execute_tool', SpanKind.INTERNAL, step.startedAt, stepEnd(step), attributes);
  } else {
    const name = step.name ? `${step.type} ${step.name}` : step.type;
    span = baseSpan(traceId, stepSpanId(step), name, SpanKind.INTERNAL, step.startedAt, stepEnd(step), attrs(common));
  }
  const parent = step.parentId === undefined ? undefined : byId.get(step.parentId);
  span.parentSpanId = parent !== undefined && parent.runId === step.runId ? stepSpanId(parent) : runSpanId(step.runId);
  if (step.status === 'error') applyError(span, step.error);
  return span;
}

function stepSpanId(step: TraceStep): string {
  return otelId('step', `${step.runId}/${step.id}`, 16);
}

function applyError(span: OtelSpan, error: SerializedError | undefined): void {
  span.status = { code: SpanStatusCode.ERROR, message: error?.message ?? 'failed' };
  span.attributes.push({ key: 'error.type', value: { stringValue: error?.name ?? 'Error' } });
}

function invokeName(agentName: string | undefined): string {
  return agentName ? `invoke_agent ${agentName}` : 'invoke_agent';
}

function baseSpan(traceId: string, spanId: string, name: string, kind: OtelSpan['kind'], start: number, end: number, attributes: OtelAttribute[]): OtelSpan {
  return {
    traceId,
    spanId,
    name,
    kind,
    startTimeUnixNano: msToNanos(start),
    endTimeUnixNano: msToNanos(Math.max(start, end)),
    attributes,
    status: { code: SpanStatusCode.UNSET },
  };
}

/** Milliseconds since the epoch → nanoseconds as a decimal string (microsecond precision). */
export function msToNanos(ms: number): string {
  return (BigInt(Math.round(ms * 1000)) * 1000n).toString();
}

function attrs(values: Record<string, PlainAttributeValue | undefined>): OtelAttribute[] {
  const out: OtelAttribute[] = [];
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out.push({ key, value: toAttributeValue(value) });
  return out;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
