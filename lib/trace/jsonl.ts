import { TraceFormatError } from '../core/errors/trace-format-error.js';
import { TRACE_VERSION, type AgentTraceJSON, type TraceHeader, type TraceRunFields } from './trace-step.js';
import { parseRunFields, parseStep } from './validate.js';

/** The header line's object of a trace: `{"type":"trace","version":1,"runId",…}`. */
export function traceHeader(run: TraceRunFields): TraceHeader {
  return { type: 'trace', version: TRACE_VERSION, ...run };
}

/** A trace as JSONL: the header line (`traceHeader`), then one step per line. */
export function traceToJSONL(trace: AgentTraceJSON): string {
  const { steps, version: _version, ...run } = trace;
  const lines = [JSON.stringify(traceHeader(run))];
  for (const step of steps) lines.push(JSON.stringify(step));
  return `${lines.join('\n')}\n`;
}

/**
 * Parses and validates trace JSONL into plain trace JSON. Blank lines are skipped. A last line that
 * is not valid JSON and has no line break after it was cut off mid-write (the run was killed): it
 * is dropped and the trace marked `incomplete`, like a header that says so (a trace still being
 * written step by step). Throws a TraceFormatError naming the line for invalid JSON elsewhere, a
 * missing or foreign header, an unsupported version or a malformed step.
 */
export function parseTraceJSONL(text: string): AgentTraceJSON {
  const lines = text.split(/\r?\n/);
  // The line after the last line break: only it can have been cut off.
  const unterminated = lines.length - 1;
  let trace: AgentTraceJSON | undefined;
  let truncated = false;
  for (let index = 0; index < lines.length; index++) {
    const raw = (lines[index] ?? '').trim();
    if (raw === '') continue;
    const line = index + 1;
    const value = index === unterminated ? parseLastLine(raw, line) : parseLine(raw, line);
    if (value === CUT_OFF) {
      truncated = true;
      continue;
    }
    if (trace === undefined) {
      if (typeof value !== 'object' || value === null || (value as { type?: unknown }).type !== 'trace') {
        throw new TraceFormatError('expected the trace header {"type":"trace","version":1,…} as the first line', { line });
      }
      trace = { version: TRACE_VERSION, ...parseRunFields(value, line), steps: [] };
    } else {
      trace.steps.push(parseStep(value, line));
    }
  }
  if (trace === undefined) throw new TraceFormatError(truncated ? 'the trace header is cut off: nothing was written after it' : 'empty trace: no header line');
  if (truncated) trace.incomplete = true;
  return trace;
}

/** Validates trace JSON (as produced by `toJSON()`) and returns a plain copy. */
export function parseTraceJSON(value: unknown): AgentTraceJSON {
  const run = parseRunFields(value);
  const steps = (value as { steps?: unknown }).steps;
  if (steps !== undefined && !Array.isArray(steps)) throw new TraceFormatError('field "steps" must be an array');
  return { version: TRACE_VERSION, ...run, steps: (steps ?? []).map((step: unknown) => parseStep(step)) };
}

/** The value of a last line cut off mid-write. */
const CUT_OFF = Symbol('cut off');

/** The last line, unterminated: CUT_OFF when it is not JSON (a partial write). */
function parseLastLine(raw: string, line: number): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw.startsWith('{') ? CUT_OFF : parseLine(raw, line);
  }
}

function parseLine(raw: string, line: number): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    throw new TraceFormatError(`invalid JSON: ${error instanceof Error ? error.message : String(error)}`, { line, cause: error });
  }
}
