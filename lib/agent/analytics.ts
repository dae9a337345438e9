import type { AgentObserver } from '../events/observer.js';
import type { AgentEvent, RunStatus } from '../events/types.js';

/** Per-tool statistics. */
export interface ToolAnalytics {
  calls: number;
  errors: number;
  cached: number;
  totalMs: number;
  avgMs: number;
  maxMs: number;
}

/** What `agent.analytics` reports (with `enableAnalytics: true`). */
export interface AgentAnalyticsSnapshot {
  runs: number;
  runsByStatus: Partial<Record<RunStatus, number>>;
  avgRunMs: number;
  llmCalls: number;
  llmRetries: number;
  avgLlmMs: number;
  totalTokens: number;
  totalCostUsd: number;
  cacheHits: number;
  tools: Record<string, ToolAnalytics>;
}

/**
 * Aggregates an agent's runs from its event stream: run outcomes and durations, LLM calls,
 * retries, latency, tokens, cost, cache hits, and per-tool calls, errors and latency.
 */
export class AgentAnalytics implements AgentObserver {
  readonly name = 'agent-analytics';
  #runs = 0;
  #runMs = 0;
  #byStatus: Partial<Record<RunStatus, number>> = {};
  #llmCalls = 0;
  #llmMs = 0;
  #retries = 0;
  #tokens = 0;
  #cost = 0;
  #cacheHits = 0;
  #tools = new Map<string, ToolAnalytics>();

  onEvent(event: AgentEvent): void {
    switch (event.type) {
      case 'run-end':
        this.#runs += 1;
        this.#runMs += event.durationMs;
        this.#byStatus[event.status] = (this.#byStatus[event.status] ?? 0) + 1;
        this.#tokens += event.usage.totalTokens;
        this.#cost += event.usage.totalCostUsd;
        break;
      case 'llm-end':
        if (event.cached) break;
        this.#llmCalls += 1;
        this.#llmMs += event.durationMs;
        break;
      case 'llm-retry':
        this.#retries += 1;
        break;
      case 'cache-hit':
        this.#cacheHits += 1;
        break;
      case 'tool-end':
        this.#tool(event.toolName, event.durationMs, false, event.cached);
        break;
      case 'tool-error':
        this.#tool(event.toolName, event.durationMs, true, false);
        break;
      default:
        break;
    }
  }

  #tool(name: string, ms: number, error: boolean, cached: boolean): void {
    const stats = this.#tools.get(name) ?? { calls: 0, errors: 0, cached: 0, totalMs: 0, avgMs: 0, maxMs: 0 };
    stats.calls += 1;
    if (error) stats.errors += 1;
    if (cached) stats.cached += 1;
    stats.totalMs += ms;
    stats.maxMs = Math.max(stats.maxMs, ms);
    stats.avgMs = stats.totalMs / stats.calls;
    this.#tools.set(name, stats);
  }

  /** A copy of the current figures. */
  snapshot(): AgentAnalyticsSnapshot {
    const tools: Record<string, ToolAnalytics> = {};
    for (const [name, stats] of this.#tools) tools[name] = { ...stats };
    return {
      runs: this.#runs,
      runsByStatus: { ...this.#byStatus },
      avgRunMs: this.#runs === 0 ? 0 : this.#runMs / this.#runs,
      llmCalls: this.#llmCalls,
      llmRetries: this.#retries,
      avgLlmMs: this.#llmCalls === 0 ? 0 : this.#llmMs / this.#llmCalls,
      totalTokens: this.#tokens,
      totalCostUsd: this.#cost,
      cacheHits: this.#cacheHits,
      tools,
    };
  }

  /** Clears every figure. */
  reset(): void {
    this.#runs = this.#runMs = this.#llmCalls = this.#llmMs = this.#retries = this.#tokens = this.#cost = this.#cacheHits = 0;
    this.#byStatus = {};
    this.#tools = new Map();
  }
}
