import { AgentUsage } from '../core/usage.js';
import type { NodeOutcomeJSON } from './checkpoint/types.js';
import type { GraphNodeError, NodeUpdate } from './state.js';
import type { NodeResult } from './types.js';

/** What one node execution (a leaf, a whole parallel group, a subgraph) produced. */
export interface NodeOutcome {
  update: NodeUpdate;
  /** One result per leaf that ran (a parallel group: one per member, in order). */
  results: NodeResult[];
  usage: AgentUsage;
  /** Errors ErrorPolicy SKIP let through. */
  errors: GraphNodeError[];
}

/** A finished outcome as checkpointed (a parallel member that finished before another interrupted). */
export function outcomeToJSON(outcome: NodeOutcome): NodeOutcomeJSON {
  return { update: outcome.update, results: outcome.results, usage: outcome.usage.toJSON(), errors: outcome.errors };
}

/** Back from a checkpoint. */
export function outcomeFromJSON(json: NodeOutcomeJSON): NodeOutcome {
  return { update: json.update, results: json.results, usage: usageFromJSON(json.usage), errors: json.errors };
}

/** An AgentUsage holding `json`'s counts. */
export function usageFromJSON(json: Parameters<AgentUsage['merge']>[0]): AgentUsage {
  const usage = new AgentUsage();
  usage.merge(json);
  return usage;
}
