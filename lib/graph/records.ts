import type { AgentUsageJSON } from '../core/usage.js';

/** The outcome of one node execution. */
export interface NodeResult {
  node: string;
  /** The node's output (its `data.__last_output__`). */
  output: unknown;
  /** The output as text (an agent's answer). */
  content: string;
  status: 'ok' | 'skipped';
  /** Tokens and cost of the node (agent nodes; zero for function nodes). */
  usage: AgentUsageJSON;
  durationMs: number;
  attempts: number;
  step: number;
  error?: { name: string; message: string };
}

/** An interrupt waiting for an answer. */
export interface PendingInterrupt {
  /** Pass to `resume`. `<threadId>:<nonce>`. */
  id: string;
  /** The node that asked (a parallel member or a subgraph's node: its own name). */
  node: string;
  /** The nodes leading to it, outermost first (`['review']`, `['team', 'critic']`, `['sub', 'ask']`). */
  path: string[];
  prompt: string;
  payload?: unknown;
}

