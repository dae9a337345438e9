import type { AgentObserver } from '../events/observer.js';
import type { AgentEvent, RunStatus } from '../events/types.js';
import { LatencyWindow } from './latency-window.js';

/** Per-tool statistics. Latency percentiles are nearest-rank over the last 10,000 calls. */
export interface ToolAnalytics {
  calls: number;
  errors: number;
  cached: number;
  /** (calls − errors) / calls; 0 before the first call. */
  successRate: number;
  totalMs: number;
  avgMs: number;
  maxMs: number;
  p50Ms: number;
  p95Ms: number;
  /** Tokens of the results fed back to the model, estimated as characters / 4 (tools report no usage). */
  resultTokens: number;
}

/**
 * Per-model statistics. `calls` are real LLM calls; `cachedCalls` replies the response cache
 * served (no call, cost 0, tokens still counted as the spec says). Latency percentiles are over
 * the real calls (nearest-rank, the last 10,000).
 */
export interface ModelAnalytics {
  calls: number;
  cachedCalls: number;
  /** cachedCalls / (calls + cachedCalls); 0 before the first reply. */
  cacheHitRate: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  costUsd: number;
  avgMs: number;
  p50Ms: number;
  p95Ms: number;
}

/** What `agent.analytics` reports (with `enableAnalytics: true`). */
export interface AgentAnalyticsSnapshot {
  runs: number;
  runsByStatus: Partial<Record<RunStatus, number>>;
  avgRunMs: number;
  p50RunMs: number;
  p95RunMs: number;
  llmCalls: number;
  llmRetries: number;
  avgLlmMs: number;
  p50LlmMs: number;
  p95LlmMs: number;
  totalTokens: number;
  totalCostUsd: number;
  cacheHits: number;
  tools: Record<string, ToolAnalytics>;
  /** By the model named in each `llm-end` (a fallback or `/model` switch shows as its own row). */
  models: Record<string, ModelAnalytics>;
}

interface ToolTally {
  calls: number;
  errors: number;
  cached: number;
  totalMs: number;
  maxMs: number;
  resultChars: number;
  latency: LatencyWindow;
}

interface ModelTally {
  calls: number;
  cachedCalls: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  costUsd: number;
  totalMs: number;
  latency: LatencyWindow;
}

/**
 * Aggregates an agent's runs from its event stream: run outcomes and durations, LLM calls,
 * retries, latency (mean, p50, p95), tokens, cost, cache hits; per tool calls, success rate,
 * latency and result tokens; per model calls, tokens, cost, cache hit rate and latency.
 */
export class AgentAnalytics implements AgentObserver {
  readonly name = 'agent-analytics';
  #runs = 0;
  #runMs = 0;
  #runLatency = new LatencyWindow();
  #llmLatency = new LatencyWindow();
  #byStatus: Partial<Record<RunStatus, number>> = {};
  #llmCalls = 0;
  #llmMs = 0;
  #retries = 0;
  #tokens = 0;
  #cost = 0;
  #cacheHits = 0;
  #tools = new Map<string, ToolTally>();
  #models = new Map<string, ModelTally>();

  onEvent(event: AgentEvent): void {
    switch (event.type) {
      case 'run-end':
        this.#runs += 1;
        this.#runMs += event.durationMs;
        this.#runLatency.add(event.durationMs);
        this.#byStatus[event.status] = (this.#byStatus[event.status] ?? 0) + 1;
        this.#tokens += event.usage.totalTokens;
        this.#cost += event.usage.totalCostUsd;
        break;
      case 'llm-end': {
        const model = this.#model(event.model);
        model.promptTokens += event.usage.promptTokens;
        model.completionTokens += event.usage.completionTokens;
        model.totalTokens += event.usage.totalTokens;
        model.costUsd += event.usage.costUsd;
        if (event.cached === true) {
          model.cachedCalls += 1;
          break;
        }
        model.calls += 1;
        model.totalMs += event.durationMs;
        model.latency.add(event.durationMs);
        this.#llmCalls += 1;
        this.#llmMs += event.durationMs;
        this.#llmLatency.add(event.durationMs);
        break;
      }
      case 'llm-retry':
        this.#retries += 1;
        break;
      case 'cache-hit':
        this.#cacheHits += 1;
        break;
      case 'tool-end':
        this.#tool(event.toolName, event.durationMs, false, event.cached, event.result.length);
        break;
      case 'tool-error':
        this.#tool(event.toolName, event.durationMs, true, false, 0);
        break;
      default:
        break;
    }
  }

  #model(name: string): ModelTally {
    let tally = this.#models.get(name);
    if (tally === undefined) {
      tally = { calls: 0, cachedCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, totalMs: 0, latency: new LatencyWindow() };
      this.#models.set(name, tally);
    }
    return tally;
  }

  #tool(name: string, ms: number, error: boolean, cached: boolean, resultChars: number): void {
    let stats = this.#tools.get(name);
    if (stats === undefined) {
      stats = { calls: 0, errors: 0, cached: 0, totalMs: 0, maxMs: 0, resultChars: 0, latency: new LatencyWindow() };
      this.#tools.set(name, stats);
    }
    stats.calls += 1;
    if (error) stats.errors += 1;
    if (cached) stats.cached += 1;
    stats.totalMs += ms;
    stats.maxMs = Math.max(stats.maxMs, ms);
    stats.resultChars += resultChars;
    stats.latency.add(ms);
  }

  /** A copy of the current figures. */
  snapshot(): AgentAnalyticsSnapshot {
    const tools: Record<string, ToolAnalytics> = {};
    for (const [name, t] of this.#tools) {
      tools[name] = {
        calls: t.calls,
        errors: t.errors,
        cached: t.cached,
        successRate: t.calls === 0 ? 0 : (t.calls - t.errors) / t.calls,
        totalMs: t.totalMs,
        avgMs: t.calls === 0 ? 0 : t.totalMs / t.calls,
        maxMs: t.maxMs,
        p50Ms: t.latency.percentile(50),
        p95Ms: t.latency.percentile(95),
        resultTokens: Math.ceil(t.resultChars / 4),
      };
    }
    const models: Record<string, ModelAnalytics> = {};
    for (const [name, m] of this.#models) {
      const replies = m.calls + m.cachedCalls;
      models[name] = {
        calls: m.calls,
        cachedCalls: m.cachedCalls,
        cacheHitRate: replies === 0 ? 0 : m.cachedCalls / replies,
        promptTokens: m.promptTokens,
        completionTokens: m.completionTokens,
        totalTokens: m.totalTokens,
        costUsd: m.costUsd,
        avgMs: m.calls === 0 ? 0 : m.totalMs / m.calls,
        p50Ms: m.latency.percentile(50),
        p95Ms: m.latency.percentile(95),
      };
    }
    return {
      runs: this.#runs,
      runsByStatus: { ...this.#byStatus },
      avgRunMs: this.#runs === 0 ? 0 : this.#runMs / this.#runs,
      p50RunMs: this.#runLatency.percentile(50),
      p95RunMs: this.#runLatency.percentile(95),
      llmCalls: this.#llmCalls,
      llmRetries: this.#retries,
      avgLlmMs: this.#llmCalls === 0 ? 0 : this.#llmMs / this.#llmCalls,
      p50LlmMs: this.#llmLatency.percentile(50),
      p95LlmMs: this.#llmLatency.percentile(95),
      totalTokens: this.#tokens,
      totalCostUsd: this.#cost,
      cacheHits: this.#cacheHits,
      tools,
      models,
    };
  }

  /** Clears every figure. */
  reset(): void {
    this.#runs = this.#runMs = this.#llmCalls = this.#llmMs = this.#retries = this.#tokens = this.#cost = this.#cacheHits = 0;
    this.#byStatus = {};
    this.#tools = new Map();
    this.#models = new Map();
    this.#runLatency = new LatencyWindow();
    this.#llmLatency = new LatencyWindow();
  }
}
