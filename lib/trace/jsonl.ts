import { TraceFormatError } from '../core/errors/trace-format-error.js';
import { TRACE_VERSION, type AgentTraceJSON, type TraceHeader } from './trace-step.js';
import { parseRunFields, parseStep } from './validate.js';

/** A trace as JSONL: the header line `{"type":"trace","version":1,"runId",…}`, then one step per line. */
export function traceToJSONL(trace: AgentTraceJSON): string {
  const { steps, version: _version, ...run } = trace;
  const header: TraceHeader = { type: 'trace', version: TRACE_VERSION, ...run };
  const lines = [JSON.stringify(header)];
  for (const step of steps) lines.push(JSON.stringify(step));
  return `${lines.join('\n')}\n`;
}

/**
 * Parses and validates trace JSONL into plain trace JSON. Blank lines are skipped. Throws a
 * TraceFormatError naming the line for invalid JSON, a missing or foreign header, an unsupported
 * version or a malformed step.
 */
export function parseTraceJSONL(text: string): AgentTraceJSON {
  const lines = text.split(/\r?\n/);
  let trace: AgentTraceJSON | undefined;
  for (let index = 0; index < lines.length; index++) {
    const raw = (lines[index] ?? '').trim();
    if (raw === '') continue;
    const line = index + 1;
    const value = parseLine(raw, line);
    if (trace === undefined) {
      if (typeof value !== 'object' || value === null || (value as { type?: unknown }).type !== 'trace') {
        throw new TraceFormatError('expected the trace header {"type":"trace","version":1,…} as the first line', { line });
      }
      trace = { version: TRACE_VERSION, ...parseRunFields(value, line), steps: [] };
    } else {
      trace.steps.push(parseStep(value, line));
    }
  }
  if (trace === undefined) throw new TraceFormatError('empty trace: no header line');
  return trace;
}

/** Validates trace JSON (as produced by `toJSON()`) and returns a plain copy. */
export function parseTraceJSON(value: unknown): AgentTraceJSON {
  const run = parseRunFields(value);
  const steps = (value as { steps?: unknown }).steps;
  if (steps !== undefined && !Array.isArray(steps)) throw new TraceFormatError('field "steps" must be an array');
  return { version: TRACE_VERSION, ...run, steps: (steps ?? []).map((step: unknown) => parseStep(step)) };
}

function parseLine(raw: string, line: number): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    throw new TraceFormatError(`invalid JSON: ${error instanceof Error ? error.message : String(error)}`, { line, cause: error });
  }
}
