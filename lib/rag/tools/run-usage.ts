import type { AgentExtension } from '../../agent/extension.js';
import type { AgentUsage } from '../../core/usage.js';

/**
 * Links tool calls to the usage of the run they belong to, so the embedding tokens and cost of a
 * search land in the run's AgentUsage (`embeddingTokens`, `totalEmbeddingCostUsd`). Add
 * `extension` to the agent's extensions; a tool looks its run up with `usageOf(ctx.runId)`.
 */
export class RunUsageLink {
  readonly #runs = new Map<string, AgentUsage>();

  /** The extension that records each run's usage while it runs. */
  readonly extension: AgentExtension = {
    name: 'rag-usage',
    beforeRun: (ctx) => {
      this.#runs.set(ctx.runId, ctx.usage);
      return undefined;
    },
    afterRun: (ctx) => {
      this.#runs.delete(ctx.runId);
    },
  };

  /** The usage of a running run, if known. */
  usageOf(runId: string): AgentUsage | undefined {
    return this.#runs.get(runId);
  }
}
