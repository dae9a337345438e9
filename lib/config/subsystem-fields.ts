import { childPath, deref, report } from './read-context.js';
import { list, record } from './read-collections.js';
import { group, readMapping } from './read-mapping.js';
import { PROVIDER_FIELDS, readProvider } from './provider-node.js';
import { bool, num, oneOf, str, type FieldTable, type Reader } from './readers.js';

/** `memory:` (the conversation window of lib/memory/). */
export const MEMORY_FIELDS: FieldTable = {
  max_messages: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', default: '20', description: 'Messages kept in the conversation window.' },
  max_tokens: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', description: 'Token limit of the conversation window.' },
  summarize_on_trim: { read: bool(), type: 'boolean', default: 'false', description: 'Summarise messages that fall out of the window.' },
  summarize_provider: { read: readProvider, type: 'name | mapping | list', default: "the agent's provider", description: 'Provider of the summaries.', fields: PROVIDER_FIELDS },
  summarize_model: { read: str({ nonEmpty: true }), type: 'string', default: "the agent's model", description: 'Model used for summaries.' },
  summarize_max_tokens: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', default: '500', description: 'Length cap of a summary reply.' },
};

const SESSION_ID: Reader<string> = (ctx, node, path) => {
  const id = str()(ctx, node, path);
  if (id === undefined) return undefined;
  if (/^[A-Za-z0-9_.-]{1,128}$/.test(id) && !id.includes('..')) return id;
  report(ctx, node, path, `"${path}" must be 1–128 characters of A-Z a-z 0-9 _ . - (no ".."); got ${JSON.stringify(id)}`);
  return undefined;
};

/** `session:` (persistent sessions of lib/sessions/). */
export const SESSION_FIELDS: FieldTable = {
  store: { read: oneOf(['memory', 'file', 'sqlite', 'redis'] as const), type: 'memory | file | sqlite | redis', default: 'sqlite', description: 'Session backend.' },
  id: { read: SESSION_ID, type: 'string', description: 'Session key (`[A-Za-z0-9_.-]{1,128}`); `agentlib chat --session` sets it too.' },
  path: { read: str({ nonEmpty: true }), type: 'string', default: '.agentlib/agentlib.db (sqlite), .agentlib/sessions (file)', description: 'Database file (sqlite) or directory (file), relative to the working directory.' },
  url: { read: str({ nonEmpty: true }), type: 'string', description: 'Server URL (redis, required there).' },
  namespace: { read: SESSION_ID, type: 'string', default: 'the agent name', description: 'Keeps the sessions of different agents apart in one store.' },
  ttl: { read: num({ min: 0 }), type: 'number ≥ 0 (seconds)', description: 'Expiry of saved sessions (0: never).' },
};

const GUARDRAIL_TYPES = ['topic', 'pii', 'toxicity', 'format', 'length'] as const;
const common: FieldTable = {
  type: { read: oneOf(GUARDRAIL_TYPES), type: GUARDRAIL_TYPES.join(' | '), required: true, description: 'Which guardrail.' },
  action: { read: oneOf(['block', 'rewrite', 'warn'] as const), type: 'block | rewrite | warn', default: 'block', description: 'What a failure does.' },
  name: { read: str({ nonEmpty: true }), type: 'string', description: 'Name in events and errors (default: the type).' },
};
const strings = list(str({ nonEmpty: true }));
const count = num({ integer: true, min: 0 });

/** A regular expression written as a string: compiled now, so a bad one is reported at its line. */
export const regexSource: Reader<string> = (ctx, node, path) => {
  const source = str({ nonEmpty: true })(ctx, node, path);
  if (source === undefined) return undefined;
  try {
    new RegExp(source, 'g');
    return source;
  } catch (error) {
    report(ctx, node, path, `"${path}" is not a valid regular expression: ${(error as Error).message}`);
    return undefined;
  }
};

/** Options of each guardrail type (in addition to `type`, `action` and `name`). */
export const GUARDRAIL_OPTIONS: Readonly<Record<(typeof GUARDRAIL_TYPES)[number], FieldTable>> = {
  topic: {
    keywords: { read: list(str({ nonEmpty: true }), { nonEmpty: true }), type: 'list of strings', required: true, description: 'Blocked topics (word boundary, case-insensitive, Unicode-normalised).' },
    replacement: { read: str(), type: 'string', default: '[REDACTED]', description: 'What `rewrite` puts in place of a keyword.' },
  },
  pii: {
    entities: { read: list(oneOf(['email', 'phone', 'ssn', 'credit_card', 'ipv4', 'ipv6', 'iban'] as const)), type: 'list', description: 'PII kinds to detect: email, phone, ssn, credit_card, ipv4, ipv6, iban (default all).' },
    patterns: { read: record(regexSource), type: 'mapping name → regex', description: 'Extra patterns; a match of `employee_id` is masked `[EMPLOYEE_ID]`.' },
  },
  toxicity: {
    blocklist: { read: strings, type: 'list of strings', description: 'Extra blocked words (added to the 16 defaults).' },
    severe: { read: strings, type: 'list of strings', description: 'Extra severe terms: one hit fails.' },
    replace_defaults: { read: bool(), type: 'boolean', default: 'false', description: 'Use only the lists given here.' },
    threshold: { read: num({ min: 0, max: 1 }), type: 'number 0–1', default: '0.5', description: 'Score that fails the check (one term scores 0.5, two 0.75).' },
  },
  format: {
    json: { read: bool(), type: 'boolean', description: 'Content must be JSON.' },
    required_keys: { read: strings, type: 'list of strings', description: 'Keys the JSON object must have.' },
    max_length: { read: count, type: 'integer ≥ 0', description: 'Longest content in characters.' },
  },
  length: {
    min_chars: { read: count, type: 'integer ≥ 0', description: 'Fewest characters.' },
    max_chars: { read: count, type: 'integer ≥ 0', description: 'Most characters (rewrite truncates).' },
    min_words: { read: count, type: 'integer ≥ 0', description: 'Fewest words.' },
    max_words: { read: count, type: 'integer ≥ 0', description: 'Most words.' },
  },
};

/** What each type needs besides its required keys: at least one of these. */
const NEEDS_ONE: Partial<Record<(typeof GUARDRAIL_TYPES)[number], readonly string[]>> = {
  format: ['json', 'required_keys', 'max_length'],
  length: ['min_chars', 'max_chars', 'min_words', 'max_words'],
};

function guardrailReader(stage: string): Reader<Record<string, unknown>> {
  return (ctx, node, path) => {
    const target = deref(ctx, node);
    const typeNode = ctx.yaml.isMap(target) ? target.items.find((pair) => ctx.yaml.isScalar(pair.key) && pair.key.value === 'type')?.value : undefined;
    const type = typeNode === undefined ? undefined : oneOf(GUARDRAIL_TYPES)(ctx, typeNode, childPath(path, 'type'));
    if (typeNode !== undefined && type === undefined) return undefined;
    const before = ctx.issues.length;
    const value = readMapping(ctx, node, path, { ...common, ...(type === undefined ? {} : GUARDRAIL_OPTIONS[type]) });
    if (value === undefined || ctx.issues.length > before || type === undefined) return undefined;
    const needs = NEEDS_ONE[type];
    if (needs !== undefined && !needs.some((key) => value[key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] !== undefined)) {
      report(ctx, node, path, `a ${type} guardrail needs at least one of ${needs.join(', ')}`);
      return undefined;
    }
    if (stage === 'tool_arguments' && value.action === 'rewrite') {
      const actionNode = ctx.yaml.isMap(target) ? target.items.find((pair) => ctx.yaml.isScalar(pair.key) && pair.key.value === 'action')?.value : undefined;
      report(ctx, actionNode ?? node, childPath(path, 'action'), 'tool arguments cannot be rewritten: use block or warn');
      return undefined;
    }
    return value;
  };
}

/** `guardrails:` — checks on the input, the answer, tool arguments and tool results. */
export const GUARDRAILS_FIELDS: FieldTable = {
  input: { read: list(guardrailReader('input')), type: 'list of guardrails', description: 'Checks on user input, in order.' },
  output: { read: list(guardrailReader('output')), type: 'list of guardrails', description: 'Checks on the final answer, in order.' },
  tool_arguments: { read: list(guardrailReader('tool_arguments')), type: 'list of guardrails', description: 'Checks on each tool call\'s arguments (block or warn).' },
  tool_result: { read: list(guardrailReader('tool_result')), type: 'list of guardrails', description: 'Checks on each tool\'s result before the model sees it.' },
};

/** Keys of one `mcp.servers` entry. */
export const MCP_SERVER_FIELDS: FieldTable = {
  name: { read: str({ nonEmpty: true }), type: 'string', required: true, description: 'Server name (prefix of its tools).' },
  transport: { read: oneOf(['stdio', 'http'] as const), type: 'stdio | http', description: 'Default: stdio with `command`, http with `url`.' },
  command: { read: str({ nonEmpty: true }), type: 'string', description: 'Executable of a stdio server.' },
  args: { read: strings, type: 'list of strings', description: 'Its arguments.' },
  env: { read: record(str()), type: 'mapping', description: 'Extra environment of a stdio server.' },
  cwd: { read: str({ nonEmpty: true }), type: 'string', description: 'Working directory of a stdio server.' },
  url: { read: str({ nonEmpty: true }), type: 'string (URL)', description: 'Endpoint of a Streamable HTTP server.' },
  headers: { read: record(str()), type: 'mapping', description: 'HTTP headers (use ${VAR} for tokens).' },
  tools: { read: strings, type: 'list of globs', description: 'Only these tools of the server.' },
};

const mcpServer: Reader<Record<string, unknown>> = (ctx, node, path) => {
  const before = ctx.issues.length;
  const server = readMapping(ctx, node, path, MCP_SERVER_FIELDS);
  if (server === undefined || ctx.issues.length > before) return undefined;
  const transport = typeof server.transport === 'string' ? server.transport : server.url !== undefined ? 'http' : 'stdio';
  const needs = transport === 'http' ? 'url' : 'command';
  if (server[needs] === undefined) {
    report(ctx, node, childPath(path, needs), `MCP server "${String(server.name)}" (${transport}) needs "${needs}"`);
    return undefined;
  }
  return { ...server, transport };
};

/** `mcp:` (the validator that applies once the MCP subsystem lands; refused until then). */
export const MCP_FIELDS: FieldTable = {
  servers: { read: list(mcpServer), type: 'list of servers', description: 'MCP servers whose tools the agent gets.', fields: MCP_SERVER_FIELDS },
};

/** Readers of the subsystem groups (memory, session, guardrails, mcp). */
export const SUBSYSTEM_READERS = {
  memory: group(MEMORY_FIELDS),
  session: group(SESSION_FIELDS),
  guardrails: group(GUARDRAILS_FIELDS),
  mcp: group(MCP_FIELDS),
};
