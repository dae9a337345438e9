import { parseTraceJSON } from '../jsonl.js';
import type { AgentTraceJSON } from '../trace-step.js';
import { checkTraceQuery } from './check-query.js';
import { checkRunId } from './run-id.js';
import { selectSummaries, summarizeTrace } from './trace-summary.js';
import type { PruneOptions, TraceQuery, TraceStore, TraceSummary } from './types.js';

/** Traces in this process's memory (tests, short-lived servers). Stores validated copies; run ids follow the same rule as the persistent stores. */
export class InMemoryTraceStore implements TraceStore {
  readonly #traces = new Map<string, { trace: AgentTraceJSON; summary: TraceSummary }>();

  async save(trace: AgentTraceJSON): Promise<void> {
    const copy = parseTraceJSON(structuredClone(trace));
    checkRunId(copy.runId);
    this.#traces.set(copy.runId, { trace: copy, summary: summarizeTrace(copy) });
  }

  async get(runId: string): Promise<AgentTraceJSON | undefined> {
    const found = this.#traces.get(checkRunId(runId));
    return found === undefined ? undefined : structuredClone(found.trace);
  }

  async list(query: TraceQuery = {}): Promise<TraceSummary[]> {
    return selectSummaries([...this.#traces.values()].map((entry) => entry.summary), checkTraceQuery(query)).map((s) => structuredClone(s));
  }

  async delete(runId: string): Promise<boolean> {
    return this.#traces.delete(runId);
  }

  async prune({ before }: PruneOptions): Promise<number> {
    let removed = 0;
    for (const [runId, entry] of this.#traces) {
      if (entry.summary.startedAt < before) {
        this.#traces.delete(runId);
        removed++;
      }
    }
    return removed;
  }

  async close(): Promise<void> {}
}
