import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { closestMatch } from '../core/suggest.js';
import { parseTraceJSON, parseTraceJSONL, traceToJSONL } from './jsonl.js';
import { toOtelSpans, type OtelExportOptions } from './otel.js';
import type { OtelSpan } from './otel-types.js';
import { STEP_TYPES, isStepType, type StepType } from './step-type.js';
import { buildTimeline, formatTimeline, type TimelineEntry } from './timeline.js';
import { traceTotals, type TraceTotals } from './totals.js';
import { runEnd, runStart, type TraceData } from './trace-data.js';
import { TRACE_VERSION, type AgentTraceJSON, type NestedRunInfo, type StepStatus, type TraceRunFields, type TraceStep } from './trace-step.js';

/** What a trace is built from: the run id plus any known run fields and steps. */
export type AgentTraceInit = Partial<Omit<TraceRunFields, 'runId'>> & { runId: string; steps?: readonly TraceStep[] };

/** A step filter for `AgentTrace.filter`. */
export interface StepFilter {
  /** One step type or several. */
  type?: StepType | readonly StepType[];
  status?: StepStatus;
  /** Tool / node / model name. */
  name?: string;
  runId?: string;
}

const OPTIONAL_RUN_FIELDS = ['parentRunId', 'agentName', 'provider', 'model', 'status', 'startedAt', 'endedAt', 'input', 'output', 'incomplete'] as const;

/**
 * The execution trace of one run (always on `AgentResult.trace`): run fields, nested runs and the
 * steps in recording order. Plain data underneath; stored as versioned JSON / JSONL, never as classes.
 */
export class AgentTrace implements TraceData {
  readonly runId: string;
  parentRunId?: string;
  agentName?: string;
  provider?: string;
  model?: string;
  input?: string;
  output?: string;
  startedAt?: number;
  endedAt?: number;
  status?: string;
  /** True when the trace was read from a file its run never finished (see TraceRunFields). */
  incomplete?: boolean;
  metadata: Record<string, unknown>;
  readonly nestedRuns: NestedRunInfo[];
  readonly steps: TraceStep[];

  constructor(init: AgentTraceInit) {
    this.runId = init.runId;
    for (const key of OPTIONAL_RUN_FIELDS) {
      const value = init[key];
      if (value !== undefined) (this as Record<string, unknown>)[key] = value;
    }
    this.metadata = { ...init.metadata };
    this.nestedRuns = [...(init.nestedRuns ?? [])];
    this.steps = [...(init.steps ?? [])];
  }

  /** Appends a step and returns it. */
  addStep(step: TraceStep): TraceStep {
    this.steps.push(step);
    return step;
  }

  /** Run duration in ms (run start to end, else first step start to last step end). */
  get durationMs(): number {
    return Math.max(0, runEnd(this) - runStart(this));
  }

  /** Steps matching every given criterion (`type` may list several types). */
  filter(query: StepFilter = {}): TraceStep[] {
    const types = query.type === undefined ? undefined : new Set<string>(typeof query.type === 'string' ? [query.type] : query.type);
    for (const type of types ?? []) {
      if (!isStepType(type)) {
        const suggestion = closestMatch(type, STEP_TYPES);
        throw new TypeError(`unknown step type "${type}"` + (suggestion ? `; did you mean "${suggestion}"?` : ''));
      }
    }
    return this.steps.filter(
      (step) =>
        (types === undefined || types.has(step.type)) &&
        (query.status === undefined || step.status === query.status) &&
        (query.name === undefined || step.name === query.name) &&
        (query.runId === undefined || step.runId === query.runId),
    );
  }

  /** Steps sorted by start, each with its offset from the run start and nesting depth. */
  timeline(): TimelineEntry[] {
    return buildTimeline(this);
  }

  /** The timeline as a readable plain-text table. */
  formatTimeline(): string {
    return formatTimeline(this.timeline());
  }

  /** Tokens, cost, duration, error count and step counts by type. */
  totals(): TraceTotals {
    return traceTotals(this);
  }

  /** OTLP/JSON spans with GenAI semantic-convention attributes (see `toOtelSpans`). */
  toOtelSpans(options: OtelExportOptions = {}): OtelSpan[] {
    return toOtelSpans(this, options);
  }

  /** Plain JSON with `version: 1`. */
  toJSON(): AgentTraceJSON {
    const run: Record<string, unknown> = { version: TRACE_VERSION, runId: this.runId };
    for (const key of OPTIONAL_RUN_FIELDS) {
      const value = this[key];
      if (value !== undefined) run[key] = value;
    }
    const rest = { metadata: { ...this.metadata }, nestedRuns: this.nestedRuns.map((nested) => ({ ...nested })), steps: [...this.steps] };
    return { ...(run as Omit<AgentTraceJSON, keyof typeof rest>), ...rest };
  }

  /**
   * JSONL text: the header line `{"type":"trace","version":1,"runId",…}` then one step per line.
   * With a `path`, writes that text to the file instead (creating the directory).
   */
  toJSONL(): string;
  toJSONL(path: string): Promise<void>;
  toJSONL(path?: string): string | Promise<void> {
    return path === undefined ? traceToJSONL(this.toJSON()) : this.writeJSONL(path);
  }

  /** Writes `toJSONL()` to `path` (creating the directory). */
  async writeJSONL(path: string): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, traceToJSONL(this.toJSON()), 'utf8');
  }

  /** Rebuilds a trace from `toJSON()` output (validated; throws TraceFormatError). */
  static fromJSON(value: unknown): AgentTrace {
    return new AgentTrace(parseTraceJSON(value));
  }

  /**
   * Parses JSONL text (validated line by line; throws TraceFormatError naming the line). A last
   * line cut off mid-write is dropped and the trace marked `incomplete` (see parseTraceJSONL).
   */
  static fromJSONL(text: string): AgentTrace {
    return new AgentTrace(parseTraceJSONL(text));
  }

  /** Reads and parses a trace JSONL file. */
  static async readJSONL(path: string): Promise<AgentTrace> {
    return AgentTrace.fromJSONL(await readFile(path, 'utf8'));
  }
}
