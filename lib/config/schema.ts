import { NOT_SUPPORTED_YET, pendingYamlKey } from '../agent/not-supported-yet.js';
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

/** The entry of a top-level key that is refused until its subsystem lands. */
function notSupportedYet(key: string, subsystem: string): AgentYamlKey {
  return { key, type: 'not supported yet', description: `Refused (exit 2) until ${subsystem} lands.` };
}

function flatten(fields: FieldTable, prefix: string, out: AgentYamlKey[]): AgentYamlKey[] {
  for (const [name, spec] of Object.entries(fields)) {
    const key = prefix === '' ? name : `${prefix}.${name}`;
    const pending = prefix === '' ? pendingYamlKey(name) : undefined;
    if (pending !== undefined) {
      out.push(notSupportedYet(key, pending.subsystem));
      continue;
    }
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
 * validator's own tables (so the documentation cannot drift from what is accepted), followed by
 * the keys refused as "not supported yet" (type `not supported yet`).
 */
export function describeAgentYaml(): AgentYamlKey[] {
  const out = flatten(AGENT_FIELDS, '', []);
  for (const { subsystem, yamlKeys } of NOT_SUPPORTED_YET) {
    for (const key of yamlKeys) if (!Object.hasOwn(AGENT_FIELDS, key)) out.push(notSupportedYet(key, subsystem));
  }
  return out;
}
