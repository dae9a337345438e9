import type { AgentEvent, AgentEventOf } from '../events/types.js';
import type { MessageView } from './message-view.js';
import type { NestedRunInfo, TraceStep } from './trace-step.js';

/** An LLM call between llm-start and llm-end (one at a time per run). */
export interface PendingLlm {
  readonly id: string;
  readonly start: AgentEventOf<'llm-start'>;
  retries: number;
  fallbacks: string[];
}

/** A tool call between tool-start and tool-end / tool-error. */
export interface PendingTool {
  readonly id: string;
  readonly start: AgentEventOf<'tool-start'>;
  chunks: number;
}

type SpanEvent = Extract<AgentEvent, { type: 'node-start' | 'node-end' | 'parallel-start' | 'parallel-end' }>;

const SEP = '\u0000';

/**
 * The TraceRecorder's pairing state: open LLM calls, tools, graph nodes, selections and nested runs.
 * The maps only some runs need (tools, graph nodes, cache hits, nested runs) are made on first use:
 * a run with neither costs two maps, not seven.
 */
export class RunTracker {
  /** Open LLM calls by run id. */
  readonly llm = new Map<string, PendingLlm>();
  /** What each run's next LLM call sees, by run id (see MessageView). */
  readonly views = new Map<string, MessageView>();
  #tools: Map<string, PendingTool> | undefined;
  #selections: Map<string, TraceStep> | undefined;
  #openSpans: Map<string, TraceStep> | undefined;
  #cacheHits: Map<string, { iteration: number; step: TraceStep }> | undefined;
  #nested: Map<string, NestedRunInfo> | undefined;

  constructor(readonly rootRunId: string) {}

  /** Open tool calls by `key(runId, callId)`. */
  get tools(): Map<string, PendingTool> {
    return (this.#tools ??= new Map());
  }

  /** The tool_selection step of each call, by `key(runId, callId)`. */
  get selections(): Map<string, TraceStep> {
    return (this.#selections ??= new Map());
  }

  /** Open graph_node_start / graph_parallel_start steps by `spanKey(event)`. */
  get openSpans(): Map<string, TraceStep> {
    return (this.#openSpans ??= new Map());
  }

  /** The last cache_hit step of each run (it takes the `usage` event that follows). */
  get cacheHits(): Map<string, { iteration: number; step: TraceStep }> {
    return (this.#cacheHits ??= new Map());
  }

  /** Nested runs by run id. */
  get nested(): Map<string, NestedRunInfo> {
    return (this.#nested ??= new Map());
  }

  /** The last cache_hit step of a run, if any (makes no map). */
  cacheHitOf(runId: string): { iteration: number; step: TraceStep } | undefined {
    return this.#cacheHits?.get(runId);
  }

  /** Forgets a run's last cache_hit step (makes no map). */
  forgetCacheHit(runId: string): void {
    this.#cacheHits?.delete(runId);
  }

  /** The nested run `runId`, if it is one (makes no map). */
  nestedRun(runId: string): NestedRunInfo | undefined {
    return this.#nested?.get(runId);
  }

  /** The message view of a run (a new, empty one when the run has none yet). */
  viewOf(runId: string): MessageView {
    let view = this.views.get(runId);
    if (view === undefined) {
      view = { user: undefined, since: [] };
      this.views.set(runId, view);
    }
    return view;
  }

  /** A map key for a run-scoped id. */
  key(runId: string, id: string): string {
    return runId + SEP + id;
  }

  /** The key pairing a node-start with its node-end (or parallel-start with parallel-end). */
  spanKey(event: SpanEvent): string {
    const node = event.type === 'node-start' || event.type === 'node-end';
    const what = node ? `node${SEP}${event.node}${SEP}${event.step}` : `parallel${SEP}${event.nodes.join(SEP)}`;
    return event.runId + SEP + event.graph + SEP + what;
  }

  /** The key pairing a pipeline's step-start with its step-end (the index is unique per run). */
  stepKey(event: AgentEventOf<'step-start' | 'step-end'>): string {
    return `${event.runId}${SEP}step${SEP}${event.pipeline}${SEP}${event.index}`;
  }

  /** Open tool calls of a run. */
  toolsOf(runId: string): Array<[string, PendingTool]> {
    const tools = this.#tools;
    if (tools === undefined || tools.size === 0) return [];
    return [...tools].filter(([, pending]) => pending.start.runId === runId);
  }

  /** Open node / parallel-group steps of a run. */
  spansOf(runId: string): Array<[string, TraceStep]> {
    const spans = this.#openSpans;
    if (spans === undefined || spans.size === 0) return [];
    return [...spans].filter(([, step]) => step.runId === runId);
  }

  /** Runs with anything still open. */
  openRunIds(): Set<string> {
    const ids = new Set<string>(this.llm.keys());
    if (this.#tools !== undefined) for (const pending of this.#tools.values()) ids.add(pending.start.runId);
    if (this.#openSpans !== undefined) for (const step of this.#openSpans.values()) ids.add(step.runId);
    return ids;
  }

  /**
   * The step a new nested run of `parentRunId` runs under: among the parent's open graph nodes and
   * tool calls, one named `agentName` if any, else the most recently started; undefined when none.
   */
  anchor(parentRunId: string, agentName: string | undefined): string | undefined {
    const candidates: Array<{ id: string; name: string; startedAt: number }> = [];
    for (const step of this.#openSpans?.values() ?? []) {
      if (step.runId === parentRunId && step.type === 'graph_node_start') candidates.push({ id: step.id, name: step.name ?? '', startedAt: step.startedAt });
    }
    for (const pending of this.#tools?.values() ?? []) {
      const { start } = pending;
      if (start.runId === parentRunId) candidates.push({ id: pending.id, name: start.toolName, startedAt: start.timestamp });
    }
    const named = agentName === undefined ? [] : candidates.filter((c) => c.name === agentName);
    const pool = named.length > 0 ? named : candidates;
    let best: (typeof pool)[number] | undefined;
    for (const candidate of pool) if (best === undefined || candidate.startedAt >= best.startedAt) best = candidate;
    return best?.id;
  }
}
