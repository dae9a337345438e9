import { PRIVACY_LEVELS } from '../safety/audit/audit-types.js';
import { regexSource } from './subsystem-fields.js';
import { readProvider } from './provider-node.js';
import { childPath, deref, report } from './read-context.js';
import { list, record } from './read-collections.js';
import { group } from './read-mapping.js';
import { bool, num, oneOf, str, type FieldTable, type Reader } from './readers.js';

/** `screening.patterns`: a list of regexes, or a mapping name → regex. */
const PATTERNS: Reader<string[] | Record<string, string>> = (ctx, node, path) => {
  const target = deref(ctx, node);
  return ctx.yaml.isMap(target) ? record(regexSource)(ctx, node, path) : list(regexSource)(ctx, node, path);
};

/** `screening:` — tool-output screening for prompt injection. */
export const SCREENING_FIELDS: FieldTable = {
  all_tools: { read: bool(), type: 'boolean', default: 'false', description: 'Screen every tool\'s output (tools defined with `screenOutput: true` are always screened).' },
  tools: { read: list(str({ nonEmpty: true })), type: 'list of tool names', description: 'Also screen these tools.' },
  patterns: { read: PATTERNS, type: 'list of regexes | mapping name → regex', description: 'Extra injection patterns (case-insensitive).' },
  no_built_ins: { read: bool(), type: 'boolean', default: 'false', description: 'Use only `patterns`, not the 15 built-in ones.' },
  placeholder: { read: str({ nonEmpty: true }), type: 'string', default: '[removed: possible prompt injection ({pattern})]', description: 'Replaces each matched span; `{pattern}` names the pattern.' },
  decode_base64: { read: bool(), type: 'boolean', default: 'true', description: 'Also screen what base64 runs (24+ characters) decode to.' },
};

/** `coherence:` — the intent check before tool calls. */
export const COHERENCE_FIELDS: FieldTable = {
  enabled: { read: bool(), type: 'boolean', default: 'true', description: 'Run the check (the group alone turns it on).' },
  provider: { read: readProvider, type: 'name | mapping', description: "The checker's provider (default: the agent's)." },
  model: { read: str({ nonEmpty: true }), type: 'string', description: "The checker's model (default: the agent's model with the agent's provider, else that provider's default)." },
  fail_closed: { read: bool(), type: 'boolean', default: 'false', description: 'Block the tool call when the check itself fails (default: let it run).' },
  timeout_ms: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', default: '10000', description: 'Time limit of one check.' },
  tools: { read: list(str({ nonEmpty: true })), type: 'list of tool names', description: 'Only check these tools (default all).' },
};

/** `audit:` — the JSONL audit log. */
export const AUDIT_FIELDS: FieldTable = {
  dir: { read: str({ nonEmpty: true }), type: 'string (directory)', required: true, description: 'Directory of the audit files (relative to the agent file).' },
  privacy: { read: oneOf(PRIVACY_LEVELS), type: PRIVACY_LEVELS.join(' | '), default: 'keys_only', description: 'How much of arguments and results is written.' },
  rotate_daily: { read: bool(), type: 'boolean', default: 'true', description: '`audit-YYYY-MM-DD.jsonl` per UTC day; false writes one `audit.jsonl`.' },
};

const coherenceGroup = group(COHERENCE_FIELDS);
/** `coherence:` read, with the provider's spec kept as given. */
export const readCoherence: Reader<Record<string, unknown>> = (ctx, node, path) => {
  const value = coherenceGroup(ctx, node, path);
  if (value !== undefined && Array.isArray(value.provider)) {
    report(ctx, node, childPath(path, 'provider'), 'the coherence checker takes one provider, not a fallback list');
    return undefined;
  }
  return value;
};
