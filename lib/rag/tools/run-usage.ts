import type { AgentExtension, ExtensionContext } from '../../agent/extension.js';
import type { AgentUsage } from '../../core/usage.js';

/**
 * Links tool calls to the run they belong to, so the embedding tokens and cost of a search land in
 * the run's AgentUsage (`embeddingTokens`, `totalEmbeddingCostUsd`) and the RAG tools emit their
 * `retrieval-start` / `retrieval-end` events on the run's stream. Add `extension` to the agent's
 * extensions; a tool looks its run up with `runOf(ctx.runId)`.
 */
export class RunUsageLink {
  readonly #runs = new Map<string, ExtensionContext>();

  /** The extension that records each run while it runs. */
  readonly extension: AgentExtension = {
    name: 'rag-usage',
    beforeRun: (ctx) => {
      this.#runs.set(ctx.runId, ctx);
      return undefined;
    },
    afterRun: (ctx) => {
      this.#runs.delete(ctx.runId);
    },
  };

  /** The usage of a running run, if known. */
  usageOf(runId: string): AgentUsage | undefined {
    return this.#runs.get(runId)?.usage;
  }

  /** A running run (its usage and its `emit`), if known. */
  runOf(runId: string): ExtensionContext | undefined {
    return this.#runs.get(runId);
  }
}
