import type { Agent } from '../agent/agent.js';
import { estimateTokensSync } from '../agent/token-estimate.js';
import { isModelPriced, priceUsage } from '../providers/models/pricing.js';
import { CHECKS } from './checks/registry.js';
import type { EvalCase } from './types.js';

/** Assumptions of {@link estimateSuiteCost}. */
export interface EstimateOptions {
  /** Completion tokens per model call. Default 256. */
  completionTokensPerCall?: number;
  /** The judge's model (priced separately). Default: the agent's model. */
  graderModel?: string;
}

/** What a suite run is expected to cost. */
export interface CostEstimate {
  runs: number;
  /** Model calls of the agent (two per run that expects a tool, one otherwise). */
  agentCalls: number;
  judgeCalls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  /** False when the model has no known price (the cost is then 0). */
  priced: boolean;
  model: string;
}

const TOOL_TYPES = new Set(['tool-used', 'tool-sequence', 'tool-args-match', 'unique-tools']);

/**
 * Estimates a suite's cost before running it: per run, the system prompt, tool schemas and input
 * (chars / 4) sent once per expected model call — two when the case expects a tool call (call,
 * then answer; the tool result added to the second), one otherwise — plus one call per judge
 * assertion, at the model's list price. An estimate, not a bound: agents may loop further.
 */
export function estimateSuiteCost(agent: Agent, cases: readonly EvalCase[], repeat: number, options: EstimateOptions = {}): CostEstimate {
  const completion = options.completionTokensPerCall ?? 256;
  const base = estimateTokensSync(agent.systemPrompt) + estimateTokensSync(JSON.stringify(agent.tools.map((t) => ({ name: t.name, description: t.description }))));
  let agentCalls = 0;
  let judgeCalls = 0;
  let promptTokens = 0;
  let judgePrompt = 0;
  const active = cases.filter((c) => c.skip !== true);
  for (const evalCase of active) {
    const calls = evalCase.assert.some((a) => TOOL_TYPES.has(a.type) && !a.negate) ? 2 : 1;
    const input = estimateTokensSync(evalCase.input);
    agentCalls += calls * repeat;
    promptTokens += repeat * (calls * (base + input) + (calls - 1) * completion);
    const judges = evalCase.assert.filter((a) => CHECKS.get(a.type)?.kind === 'judge').length;
    judgeCalls += judges * repeat;
    judgePrompt += judges * repeat * (200 + input + completion);
  }
  const model = agent.model;
  const graderModel = options.graderModel ?? model;
  const agentCost = priceUsage(model, { promptTokens, completionTokens: agentCalls * completion });
  const judgeCost = priceUsage(graderModel, { promptTokens: judgePrompt, completionTokens: judgeCalls * 60 });
  return {
    runs: active.length * repeat,
    agentCalls,
    judgeCalls,
    promptTokens: promptTokens + judgePrompt,
    completionTokens: agentCalls * completion + judgeCalls * 60,
    costUsd: agentCost + judgeCost,
    priced: isModelPriced(model) && (judgeCalls === 0 || isModelPriced(graderModel)),
    model,
  };
}
