import { childPath, deref, describeNode, report, type ReadContext } from '../../config/read-context.js';
import { group } from '../../config/read-mapping.js';
import { num, oneOf, str, type FieldTable, type Reader } from '../../config/readers.js';
import { PROVIDER_FIELDS, readProvider } from '../../config/provider-node.js';
import type { ProviderSpec } from '../../providers/create-provider.js';
import { ErrorPolicy } from '../constants.js';
import { SUPERVISOR_DEFAULTS, SupervisorStrategy } from '../supervisor/types.js';

/** A supervisor file (`kind: supervisor`) as read (paths still relative to the file). */
export interface SupervisorFileConfig {
  kind: 'supervisor';
  name?: string;
  description?: string;
  strategy: SupervisorStrategy;
  /** Agent YAML files. */
  agents: string[];
  /** The provider of the supervisor's own calls. */
  provider: ProviderSpec;
  plannerModel?: string;
  executorModel?: string;
  maxRounds?: number;
  maxStalls?: number;
  errorPolicy?: ErrorPolicy;
  retry?: { limit?: number; baseDelayMs?: number; maxDelayMs?: number };
  maxTotalTokens?: number;
  maxCostUsd?: number;
}

const RETRY_FIELDS: FieldTable = {
  limit: { read: num({ integer: true, min: 0 }), type: 'integer ≥ 0', description: 'Retries after the first attempt.', default: '3' },
  base_delay_ms: { read: num({ min: 0 }), type: 'number ≥ 0', description: 'The first retry delay; doubles each time.', default: '200' },
  max_delay_ms: { read: num({ min: 0 }), type: 'number ≥ 0', description: 'The longest retry delay.', default: '5000' },
};

/** A non-empty list of agent YAML paths. */
const agentPaths: Reader<string[]> = (ctx: ReadContext, node, path) => {
  const target = deref(ctx, node);
  if (!ctx.yaml.isSeq(target) || target.items.length === 0) {
    report(ctx, node, path, `"${path}" must be a non-empty list of agent YAML paths; got ${describeNode(ctx, node)}`);
    return undefined;
  }
  const out: string[] = [];
  target.items.forEach((item, i) => {
    const value = str({ nonEmpty: true })(ctx, item, childPath(path, i));
    if (value !== undefined) out.push(value);
  });
  return out;
};

/** The top-level keys of a supervisor file. */
export const SUPERVISOR_FIELDS: FieldTable = {
  kind: { read: oneOf(['supervisor']), type: 'supervisor', description: 'Marks a supervisor file.', required: true },
  name: { read: str({ nonEmpty: true }), type: 'string', description: 'The supervisor name (events, traces, diagrams).', default: 'supervisor' },
  description: { read: str(), type: 'string', description: 'What the team does.' },
  strategy: { read: oneOf(Object.values(SupervisorStrategy)), type: 'plan_and_execute | round_robin | dynamic | magentic', description: 'How the supervisor coordinates the agents.', required: true },
  agents: { read: agentPaths, type: 'list of paths', description: 'The agents, by agent YAML path (relative to this file).', required: true },
  provider: { read: readProvider, type: 'name | mapping | list', description: "The provider of the supervisor's own calls (plans, routing, ledgers).", fields: PROVIDER_FIELDS, required: true },
  planner_model: { read: str({ nonEmpty: true }), type: 'string', description: 'Model of plans and task ledgers.' },
  executor_model: { read: str({ nonEmpty: true }), type: 'string', description: 'Model of routing and progress ledgers.' },
  max_rounds: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', description: 'Agent turns at most.', default: String(SUPERVISOR_DEFAULTS.maxRounds) },
  max_stalls: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', description: 'magentic: unproductive rounds before a replan.', default: String(SUPERVISOR_DEFAULTS.maxStalls) },
  error_policy: { read: oneOf(Object.values(ErrorPolicy)), type: 'abort | skip | retry', description: 'What a failing agent turn does.', default: 'abort' },
  retry: { read: group(RETRY_FIELDS), type: 'mapping', description: 'Retry settings (error_policy retry).', fields: RETRY_FIELDS },
  max_total_tokens: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', description: 'Token budget across all calls.' },
  max_cost_usd: { read: num({ min: 0 }), type: 'number ≥ 0', description: 'Cost budget across all calls.' },
};
