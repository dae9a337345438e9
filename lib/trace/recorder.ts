import type { IdGenerator } from '../core/ids.js';
import type { SerializedError } from '../events/serialized-error.js';
import type { AgentEvent } from '../events/types.js';
import { AgentTrace } from './agent-trace.js';
import { eventStep } from './event-steps.js';
import { closeSpans, recordPipelineStepEnd, recordPipelineStepStart, recordSpanEnd, recordSpanStart } from './graph-steps.js';
import { closeLlm, recordLlmEnd, traceUsage } from './llm-steps.js';
import { userMessage } from './message-view.js';
import { applyRunFields } from './run-fields.js';
import { RunTracker } from './run-tracker.js';
import { StepWriter } from './step-writer.js';
import { DEFAULT_TOOL_RESULT_CHARS } from './summary.js';
import { closeTools, recordToolEnd } from './tool-steps.js';
import type { NestedRunInfo, TraceStep } from './trace-step.js';

/** Options of a TraceRecorder. */
export interface TraceRecorderOptions {
  runId: string;
  parentRunId?: string;
  metadata?: Record<string, unknown>;
  /** Characters kept of each input/output summary (tool results, answers); longer text is cut and marked. Default 2000. */
  toolResultChars?: number;
  /** Clock for `close()`. Default `Date.now`. */
  now?: () => number;
  /** Step id generator (called with `'step'`). Default: `step_1`, `step_2`, … */
  generateId?: IdGenerator;
  /**
   * Called with each step as it is added to the trace (to write it out as the run goes, see
   * TraceFileWriter). Some steps change after they are added: a graph node's end, a cache hit's usage.
   */
  onStep?: (step: TraceStep) => void;
}

const INCOMPLETE: SerializedError = { name: 'Incomplete', message: 'the run ended before this step finished' };

/**
 * Builds an AgentTrace purely from the event stream: feed it every event with `handle` (synchronous
 * and cheap). LLM and tool events are paired into `llm_call` / `tool_selection` / `tool_execution`
 * steps (tools by `callId`, so parallel calls overlap correctly); other events map one to one (see
 * docs/trace.md). Events of other runs are ignored unless they are nested runs: a run whose
 * `parentRunId` is this run (or an already nested run). Nested steps keep their own `runId`; their
 * top-level steps get `parentId` = the step they ran under (the open graph node or tool call of the
 * parent run, preferring the graph node named by the event's `node`, else one named like the nested agent), and the run is listed in `nestedRuns`.
 */
export class TraceRecorder {
  readonly #trace: AgentTrace;
  readonly #now: () => number;
  readonly #runs: RunTracker;
  readonly #writer: StepWriter;

  constructor(options: TraceRecorderOptions) {
    this.#trace = new AgentTrace({
      runId: options.runId,
      ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
      metadata: options.metadata ?? {},
    });
    this.#now = options.now ?? Date.now;
    this.#runs = new RunTracker(options.runId);
    const generate = options.generateId;
    let n = 0;
    const nextId = generate ? () => generate('step') : () => `step_${++n}`;
    this.#writer = new StepWriter(this.#trace, this.#runs, options.toolResultChars ?? DEFAULT_TOOL_RESULT_CHARS, nextId, options.onStep);
  }

  /** The trace recorded so far. */
  get trace(): AgentTrace {
    return this.#trace;
  }

  /** Records one event. Never throws for well-formed events. */
  handle(event: AgentEvent): void {
    const own = event.runId === this.#trace.runId;
    if (!own && !this.#acceptNested(event)) return;
    const runs = this.#runs;
    const writer = this.#writer;
    switch (event.type) {
      case 'text-delta':
      case 'reasoning-delta':
        return; // the hot path: nothing to record
      case 'run-start':
      case 'run-end':
      case 'graph-start':
      case 'graph-end':
        applyRunFields(own ? this.#trace : (runs.nestedRun(event.runId) ?? {}), event, own, writer.maxChars);
        // The run's input is the user message every LLM call of the run ends up answering.
        if (event.type === 'run-start') runs.views.set(event.runId, { user: userMessage(event.input, writer.maxChars), since: [] });
        if (event.type === 'run-end' || event.type === 'graph-end') this.#closeOpen(event.runId, event.timestamp);
        return;
      case 'llm-start':
        runs.llm.set(event.runId, { id: writer.nextId(), start: event, retries: 0, fallbacks: [] });
        runs.forgetCacheHit(event.runId);
        return;
      case 'llm-retry':
      case 'provider-fallback': {
        const pending = runs.llm.get(event.runId);
        if (pending && event.type === 'llm-retry') pending.retries++;
        if (pending && event.type === 'provider-fallback') pending.fallbacks.push(`${event.from} -> ${event.to}`);
        return;
      }
      case 'llm-end':
        recordLlmEnd(writer, runs, event);
        return;
      case 'usage': {
        const hit = runs.cacheHitOf(event.runId);
        if (hit && hit.iteration === event.iteration && hit.step.usage === undefined) {
          hit.step.usage = traceUsage(event.usage);
          hit.step.costUsd = event.usage.costUsd;
        }
        return;
      }
      case 'cache-hit': {
        if (event.kind === 'tool') {
          // A cached tool result: its own cache_hit step (the tool_execution step follows, marked cached).
          const metadata = { kind: 'tool', key: event.key, iteration: event.iteration, toolName: event.toolName ?? '', callId: event.callId ?? '' };
          writer.add(event, { type: 'cache_hit', name: event.toolName ?? 'tool', metadata });
          return;
        }
        const step = writer.add(event, { type: 'cache_hit', name: event.model, metadata: { kind: 'response', key: event.key, iteration: event.iteration } });
        runs.cacheHits.set(event.runId, { iteration: event.iteration, step });
        return;
      }
      case 'tool-start':
        runs.tools.set(runs.key(event.runId, event.callId), { id: writer.nextId(), start: event, chunks: 0 });
        return;
      case 'tool-chunk': {
        const pending = runs.tools.get(runs.key(event.runId, event.callId));
        if (pending) pending.chunks++;
        return;
      }
      case 'tool-end':
      case 'tool-error':
        recordToolEnd(writer, runs, event);
        return;
      case 'policy-decision': {
        const selection = runs.selections.get(runs.key(event.runId, event.callId));
        if (event.decision !== 'allow' && selection) {
          pushMetadata(selection, 'policy', { callId: event.callId, toolName: event.toolName, decision: event.decision, reason: event.reason });
        }
        return;
      }
      case 'node-start':
      case 'parallel-start':
        recordSpanStart(writer, runs, event);
        return;
      case 'node-end':
      case 'parallel-end':
        recordSpanEnd(writer, runs, event);
        return;
      case 'step-start':
        recordPipelineStepStart(writer, runs, event, own ? this.#trace : undefined);
        return;
      case 'step-end':
        recordPipelineStepEnd(writer, runs, event, own ? this.#trace : undefined);
        return;
      case 'error':
        // A run-level failure while a call is open is that call failing (the loop is sequential).
        if (event.stage === 'llm' || event.stage === 'run') closeLlm(writer, runs, event.runId, event.timestamp, event.error);
        break;
      default:
        break;
    }
    const fields = eventStep(event);
    if (fields === undefined) return;
    const { callId, ...draft } = fields;
    const parentId = callId === undefined ? undefined : runs.selections.get(runs.key(event.runId, callId))?.id;
    writer.add(event, { ...draft, parentId });
  }

  /** Closes every open step (LLM calls and tools without an end event) at `now()`, marked as errors. */
  close(): void {
    const now = this.#now();
    for (const runId of this.#runs.openRunIds()) this.#closeOpen(runId, now);
  }

  #acceptNested(event: AgentEvent): boolean {
    const runs = this.#runs;
    if (runs.nestedRun(event.runId) !== undefined) return true;
    const parent = event.parentRunId;
    if (parent === undefined || (parent !== this.#trace.runId && runs.nestedRun(parent) === undefined)) return false;
    const info: NestedRunInfo = { runId: event.runId, parentRunId: parent };
    const anchor = runs.anchor(parent, event.node ?? (event.type === 'run-start' ? event.agentName : undefined));
    if (anchor !== undefined) info.parentStepId = anchor;
    runs.nested.set(event.runId, info);
    this.#trace.nestedRuns.push(info);
    return true;
  }

  #closeOpen(runId: string, at: number): void {
    closeLlm(this.#writer, this.#runs, runId, at, INCOMPLETE);
    closeTools(this.#writer, this.#runs, runId, at, INCOMPLETE);
    closeSpans(this.#runs, runId, at);
    this.#runs.views.delete(runId);
  }
}

function pushMetadata(step: TraceStep, key: string, value: unknown): void {
  const metadata = (step.metadata ??= {});
  const list = metadata[key];
  if (Array.isArray(list)) list.push(value);
  else metadata[key] = [value];
}
