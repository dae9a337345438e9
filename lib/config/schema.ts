import { AGENT_FIELDS } from './agent-fields.js';
import type { FieldTable } from './readers.js';

/** One documented key of the agent YAML format. */
export interface AgentYamlKey {
  /** Dotted key (`retry.max_retries`, `provider.base_url`, `mcp.servers[].command`). */
  key: string;
  type: string;
  default?: string;
  required?: boolean;
  description: string;
}

function flatten(fields: FieldTable, prefix: string, out: AgentYamlKey[]): AgentYamlKey[] {
  for (const [name, spec] of Object.entries(fields)) {
    const key = prefix === '' ? name : `${prefix}.${name}`;
    out.push({
      key,
      type: spec.type,
      description: spec.description,
      ...(spec.default === undefined ? {} : { default: spec.default }),
      ...(spec.required === true ? { required: true } : {}),
    });
    if (spec.fields !== undefined) flatten(spec.fields, spec.type.startsWith('list') ? `${key}[]` : key, out);
  }
  return out;
}

/**
 * Every key of the agent YAML format with its type, default and description, derived from the
 * validator's own tables (so the documentation cannot drift from what is accepted).
 */
export function describeAgentYaml(): AgentYamlKey[] {
  return flatten(AGENT_FIELDS, '', []);
}
