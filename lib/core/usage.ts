/** Token counts and cost of one provider call (or a sum of them). */
export interface UsageStats {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Cost in USD of the chat tokens. */
  costUsd: number;
  /** Tokens spent on embeddings. */
  embeddingTokens: number;
  /** Cost in USD of the embeddings. */
  embeddingCostUsd: number;
  /** Reasoning ("thinking") tokens, when the provider reports them; included in completionTokens. */
  reasoningTokens?: number;
  /** Prompt tokens served from the provider's prompt cache, when reported. */
  cachedPromptTokens?: number;
  /** True when the counts are estimates (the provider reported no usage). */
  estimated?: boolean;
}

/** A UsageStats of zeros. */
export function emptyUsage(): UsageStats {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, embeddingTokens: 0, embeddingCostUsd: 0 };
}

/** Builds a UsageStats from partial counts; totalTokens defaults to prompt + completion. */
export function makeUsage(partial: Partial<UsageStats>): UsageStats {
  const usage: UsageStats = { ...emptyUsage(), ...partial };
  if (partial.totalTokens === undefined) usage.totalTokens = usage.promptTokens + usage.completionTokens;
  return usage;
}

/** Sum of two UsageStats. */
export function addUsage(a: UsageStats, b: UsageStats): UsageStats {
  const sum: UsageStats = {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    costUsd: a.costUsd + b.costUsd,
    embeddingTokens: a.embeddingTokens + b.embeddingTokens,
    embeddingCostUsd: a.embeddingCostUsd + b.embeddingCostUsd,
  };
  if (a.reasoningTokens !== undefined || b.reasoningTokens !== undefined) {
    sum.reasoningTokens = (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0);
  }
  if (a.cachedPromptTokens !== undefined || b.cachedPromptTokens !== undefined) {
    sum.cachedPromptTokens = (a.cachedPromptTokens ?? 0) + (b.cachedPromptTokens ?? 0);
  }
  return sum;
}

/** Running totals of a run (what the `usage` event carries after each LLM call). */
export interface UsageTotals {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  totalCostUsd: number;
  llmCalls: number;
}

/** The JSON form of AgentUsage. */
export interface AgentUsageJSON {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  totalCostUsd: number;
  embeddingTokens: number;
  totalEmbeddingCostUsd: number;
  llmCalls: number;
  toolUsage: Record<string, number>;
  toolTokens: Record<string, number>;
}

/**
 * Usage aggregated over a run: token totals, cost, embedding cost, the number of LLM calls,
 * calls per tool (`toolUsage`) and the estimated tokens each tool's results fed back to the
 * model (`toolTokens`).
 */
export class AgentUsage {
  promptTokens = 0;
  completionTokens = 0;
  totalTokens = 0;
  totalCostUsd = 0;
  embeddingTokens = 0;
  totalEmbeddingCostUsd = 0;
  llmCalls = 0;
  // Null-prototype objects: `constructor` and `__proto__` are valid tool names.
  readonly toolUsage: Record<string, number> = Object.create(null) as Record<string, number>;
  readonly toolTokens: Record<string, number> = Object.create(null) as Record<string, number>;

  /** Same as totalCostUsd (graph results expose `totalUsage.costUsd`). */
  get costUsd(): number {
    return this.totalCostUsd;
  }

  /** Adds one provider call's usage. */
  addLlmCall(usage: UsageStats): void {
    this.llmCalls += 1;
    this.addUsage(usage);
  }

  /** Adds usage without counting an LLM call (embeddings, nested runs). */
  addUsage(usage: UsageStats): void {
    this.promptTokens += usage.promptTokens;
    this.completionTokens += usage.completionTokens;
    this.totalTokens += usage.totalTokens;
    this.totalCostUsd += usage.costUsd;
    this.embeddingTokens += usage.embeddingTokens;
    this.totalEmbeddingCostUsd += usage.embeddingCostUsd;
  }

  /** Records one call of `toolName` whose result took about `resultTokens` tokens. */
  addToolCall(toolName: string, resultTokens: number): void {
    this.toolUsage[toolName] = (this.toolUsage[toolName] ?? 0) + 1;
    this.toolTokens[toolName] = (this.toolTokens[toolName] ?? 0) + resultTokens;
  }

  /** Adds everything from another AgentUsage (nested agents, graph nodes). */
  merge(other: AgentUsage | AgentUsageJSON): void {
    this.promptTokens += other.promptTokens;
    this.completionTokens += other.completionTokens;
    this.totalTokens += other.totalTokens;
    this.totalCostUsd += other.totalCostUsd;
    this.embeddingTokens += other.embeddingTokens;
    this.totalEmbeddingCostUsd += other.totalEmbeddingCostUsd;
    this.llmCalls += other.llmCalls;
    for (const [name, n] of Object.entries(other.toolUsage)) this.toolUsage[name] = (this.toolUsage[name] ?? 0) + n;
    for (const [name, n] of Object.entries(other.toolTokens)) this.toolTokens[name] = (this.toolTokens[name] ?? 0) + n;
  }

  /** Clears every counter. */
  reset(): void {
    this.promptTokens = this.completionTokens = this.totalTokens = 0;
    this.totalCostUsd = this.embeddingTokens = this.totalEmbeddingCostUsd = this.llmCalls = 0;
    for (const key of Object.keys(this.toolUsage)) delete this.toolUsage[key];
    for (const key of Object.keys(this.toolTokens)) delete this.toolTokens[key];
  }

  /** A copy of the current counters. */
  snapshot(): AgentUsage {
    const copy = new AgentUsage();
    copy.merge(this);
    return copy;
  }

  /** The token and cost totals so far (cheap: no per-tool maps). */
  totals(): UsageTotals {
    return {
      promptTokens: this.promptTokens,
      completionTokens: this.completionTokens,
      totalTokens: this.totalTokens,
      totalCostUsd: this.totalCostUsd,
      llmCalls: this.llmCalls,
    };
  }

  toJSON(): AgentUsageJSON {
    return {
      promptTokens: this.promptTokens,
      completionTokens: this.completionTokens,
      totalTokens: this.totalTokens,
      totalCostUsd: this.totalCostUsd,
      embeddingTokens: this.embeddingTokens,
      totalEmbeddingCostUsd: this.totalEmbeddingCostUsd,
      llmCalls: this.llmCalls,
      // Spread defines own data properties (no __proto__ setter), so every tool name survives.
      toolUsage: { ...this.toolUsage },
      toolTokens: { ...this.toolTokens },
    };
  }
}
