import type { SerializedError } from '../events/serialized-error.js';
import { closestMatch } from '../core/suggest.js';
import { STEP_TYPES, isStepType } from './step-type.js';
import { TraceFormatError } from '../core/errors/trace-format-error.js';
import { TRACE_VERSION, type NestedRunInfo, type TraceMessage, type TraceRunFields, type TraceStep, type TraceUsage } from './trace-step.js';

type Obj = Record<string, unknown>;

/** Checks `value` is a version-1 trace header (or trace JSON) and returns its run fields as plain data. */
export function parseRunFields(value: unknown, line?: number): TraceRunFields {
  const at = line === undefined ? {} : { line };
  const obj = object(value, 'the trace header', at);
  if (obj['version'] !== TRACE_VERSION) {
    const found = obj['version'] === undefined ? 'no version' : `version ${JSON.stringify(obj['version'])}`;
    throw new TraceFormatError(`unsupported trace format (${found}); this agentlib reads version ${TRACE_VERSION}`, at);
  }
  const fields: TraceRunFields = {
    runId: requiredString(obj, 'runId', at),
    metadata: obj['metadata'] === undefined ? {} : object(obj['metadata'], 'field "metadata"', at),
    nestedRuns: array(obj, 'nestedRuns', at).map((run) => nestedRun(run, at)),
  };
  copyOptional(obj, fields, ['parentRunId', 'agentName', 'provider', 'model', 'input', 'output', 'status'], 'string', at);
  copyOptional(obj, fields, ['startedAt', 'endedAt'], 'number', at);
  copyOptional(obj, fields, ['incomplete'], 'boolean', at);
  if (fields.incomplete === false) delete fields.incomplete;
  return fields;
}

/** Checks `value` is a trace step and returns a plain copy with only the known fields. */
export function parseStep(value: unknown, line?: number): TraceStep {
  const at = line === undefined ? {} : { line };
  const obj = object(value, 'a step', at);
  const type = obj['type'];
  if (!isStepType(type)) {
    const suggestion = typeof type === 'string' ? closestMatch(type, STEP_TYPES) : undefined;
    throw new TraceFormatError(`unknown step type ${JSON.stringify(type)}` + (suggestion ? ` (did you mean "${suggestion}"?)` : ''), at);
  }
  const status = obj['status'];
  if (status !== 'ok' && status !== 'error') throw new TraceFormatError(`step field "status" must be "ok" or "error"`, at);
  const durationMs = requiredNumber(obj, 'durationMs', at);
  if (durationMs < 0) throw new TraceFormatError('step field "durationMs" must not be negative', at);
  const step: TraceStep = {
    id: requiredString(obj, 'id', at),
    runId: requiredString(obj, 'runId', at),
    type,
    startedAt: requiredNumber(obj, 'startedAt', at),
    timestamp: requiredString(obj, 'timestamp', at),
    durationMs,
    status,
  };
  copyOptional(obj, step, ['parentId', 'name', 'input', 'output', 'reasoning'], 'string', at);
  copyOptional(obj, step, ['costUsd'], 'number', at);
  if (obj['usage'] !== undefined) step.usage = usage(obj['usage'], at);
  if (obj['error'] !== undefined) step.error = serializedError(obj['error'], at);
  if (obj['metadata'] !== undefined) step.metadata = object(obj['metadata'], 'step field "metadata"', at);
  if (obj['messages'] !== undefined) step.messages = array(obj, 'messages', at).map((message) => traceMessage(message, at));
  return step;
}

const MESSAGE_ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'tool']);

function traceMessage(value: unknown, at: { line?: number }): TraceMessage {
  const obj = object(value, 'an entry of step field "messages"', at);
  const role = obj['role'];
  if (typeof role !== 'string' || !MESSAGE_ROLES.has(role)) throw new TraceFormatError('a message\'s "role" must be "user", "assistant" or "tool"', at);
  const out: TraceMessage = { role: role as TraceMessage['role'], content: requiredString(obj, 'content', at) };
  copyOptional(obj, out, ['name'], 'string', at);
  copyOptional(obj, out, ['isError'], 'boolean', at);
  if (obj['toolCalls'] !== undefined) {
    out.toolCalls = array(obj, 'toolCalls', at).map((call) => {
      const entry = object(call, 'an entry of "toolCalls"', at);
      return { name: requiredString(entry, 'name', at), args: requiredString(entry, 'args', at) };
    });
  }
  return out;
}

function usage(value: unknown, at: { line?: number }): TraceUsage {
  const obj = object(value, 'step field "usage"', at);
  const out: TraceUsage = {
    promptTokens: requiredNumber(obj, 'promptTokens', at),
    completionTokens: requiredNumber(obj, 'completionTokens', at),
    totalTokens: requiredNumber(obj, 'totalTokens', at),
  };
  copyOptional(obj, out, ['reasoningTokens', 'cachedPromptTokens'], 'number', at);
  return out;
}

function serializedError(value: unknown, at: { line?: number }): SerializedError {
  const obj = object(value, 'step field "error"', at);
  const out: SerializedError = { name: requiredString(obj, 'name', at), message: requiredString(obj, 'message', at) };
  copyOptional(obj, out, ['provider', 'toolName'], 'string', at);
  copyOptional(obj, out, ['status'], 'number', at);
  copyOptional(obj, out, ['retryable'], 'boolean', at);
  return out;
}

function nestedRun(value: unknown, at: { line?: number }): NestedRunInfo {
  const obj = object(value, 'an entry of "nestedRuns"', at);
  const out: NestedRunInfo = { runId: requiredString(obj, 'runId', at), parentRunId: requiredString(obj, 'parentRunId', at) };
  copyOptional(obj, out, ['parentStepId', 'agentName', 'provider', 'model', 'status'], 'string', at);
  copyOptional(obj, out, ['startedAt', 'endedAt'], 'number', at);
  return out;
}

function object(value: unknown, what: string, at: { line?: number }): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TraceFormatError(`${what} must be a JSON object`, at);
  return value as Obj;
}

function array(obj: Obj, key: string, at: { line?: number }): unknown[] {
  const value = obj[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new TraceFormatError(`field "${key}" must be an array`, at);
  return value;
}

function requiredString(obj: Obj, key: string, at: { line?: number }): string {
  const value = obj[key];
  if (typeof value !== 'string') throw new TraceFormatError(`field "${key}" must be a string`, at);
  return value;
}

function requiredNumber(obj: Obj, key: string, at: { line?: number }): number {
  const value = obj[key];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TraceFormatError(`field "${key}" must be a finite number`, at);
  return value;
}

function copyOptional<T extends object>(
  from: Obj,
  to: T,
  keys: readonly (keyof T & string)[],
  kind: 'string' | 'number' | 'boolean',
  at: { line?: number },
): void {
  for (const key of keys) {
    const value = from[key];
    if (value === undefined) continue;
    if (typeof value !== kind || (kind === 'number' && !Number.isFinite(value))) {
      throw new TraceFormatError(`field "${key}" must be a ${kind}`, at);
    }
    (to as Record<string, unknown>)[key] = value;
  }
}
