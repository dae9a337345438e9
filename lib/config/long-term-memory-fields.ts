import { childPath, deref, report, type ReadContext } from './read-context.js';
import { readMapping } from './read-mapping.js';
import { PROVIDER_FIELDS, readProvider } from './provider-node.js';
import { bool, num, oneOf, str, type FieldTable, type Reader } from './readers.js';

const STORE_ID: Reader<string> = (ctx, node, path) => {
  const id = str()(ctx, node, path);
  if (id === undefined) return undefined;
  if (/^[A-Za-z0-9_.-]{1,128}$/.test(id) && !id.includes('..') && id !== '.') return id;
  report(ctx, node, path, `"${path}" must be 1–128 characters of A-Z a-z 0-9 _ . - (no ".."); got ${JSON.stringify(id)}`);
  return undefined;
};

/** Keys of the model that extracts entities or relationships (default: the agent's provider and model). */
const EXTRACTOR_FIELDS: FieldTable = {
  extractor_provider: { read: readProvider, type: 'name | mapping | list', default: "the agent's provider", description: 'Provider of the extraction calls.', fields: PROVIDER_FIELDS },
  extractor_model: { read: str({ nonEmpty: true }), type: 'string', default: "the agent's model", description: 'Model of the extraction calls.' },
  extractor_max_tokens: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', default: '1000', description: 'Length cap of an extraction reply.' },
};

const namespace = { read: STORE_ID, type: 'string', default: 'the agent name', description: 'Keeps the data of different agents apart in one store.' };

/** `entity_memory:` (EntityMemory of lib/memory/entities/). */
export const ENTITY_MEMORY_FIELDS: FieldTable = {
  store: { read: oneOf(['memory', 'sqlite'] as const), type: 'memory | sqlite', default: 'sqlite', description: 'Where entities are kept (memory: this process only).' },
  path: { read: str({ nonEmpty: true }), type: 'string', default: '.agentlib/agentlib.db', description: 'Database file (sqlite), relative to the working directory.' },
  namespace,
  max_entities: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', default: '100', description: 'Entities kept; the least recently mentioned go first.' },
  max_injected: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', default: '20', description: 'Entities listed in the "Known Entities" block.' },
  ...EXTRACTOR_FIELDS,
};

/** `knowledge_graph:` (KnowledgeGraphMemory of lib/memory/knowledge-graph/). */
export const KNOWLEDGE_GRAPH_FIELDS: FieldTable = {
  store: { read: oneOf(['memory', 'sqlite'] as const), type: 'memory | sqlite', default: 'sqlite', description: 'TripleStore backend (memory: this process only).' },
  path: { read: str({ nonEmpty: true }), type: 'string', default: '.agentlib/agentlib.db', description: 'Database file (sqlite), relative to the working directory.' },
  namespace,
  max_injected: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', default: '20', description: 'Triples listed in the "Known Relationships" block.' },
  min_confidence: { read: num({ min: 0, max: 1 }), type: 'number 0–1', default: '0', description: 'Extracted triples below this confidence are not stored.' },
  ...EXTRACTOR_FIELDS,
};

/** `knowledge_memory:` (KnowledgeMemory of lib/memory/knowledge/). */
export const KNOWLEDGE_MEMORY_FIELDS: FieldTable = {
  store: { read: oneOf(['file', 'sqlite', 'memory'] as const), type: 'file | sqlite | memory', default: 'file', description: 'file: MEMORY.md and YYYY-MM-DD.log files; sqlite: tables of the database file.' },
  path: { read: str({ nonEmpty: true }), type: 'string', default: '.agentlib/memory (file), .agentlib/agentlib.db (sqlite)', description: 'Directory (file) or database file (sqlite), relative to the working directory.' },
  namespace,
  max_entries: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', default: '50', description: 'Long-term entries kept; the least important go first.' },
  max_entry_chars: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', default: '2000', description: 'Longest entry the remember tool accepts.' },
  recent_days: { read: num({ integer: true, min: 0 }), type: 'integer ≥ 0', default: '2', description: 'Days of logs shown as "Recent Memory".' },
  max_recent_lines: { read: num({ integer: true, min: 0 }), type: 'integer ≥ 0', default: '20', description: 'Latest log lines shown as "Recent Memory".' },
};

function valueNode(ctx: ReadContext, node: unknown, key: string): unknown {
  const target = deref(ctx, node);
  return ctx.yaml.isMap(target) ? target.items.find((pair) => ctx.yaml.isScalar(pair.key) && pair.key.value === key)?.key : undefined;
}

/**
 * A memory component key: `true` (the defaults) or a mapping of `fields`. `false` is refused
 * (leave the key out), and so is `path` with `store: memory` (it would be ignored).
 */
export function memoryComponent(fields: FieldTable): Reader<Record<string, unknown>> {
  return (ctx, node, path) => {
    const target = deref(ctx, node);
    if (ctx.yaml.isScalar(target)) {
      const on = bool()(ctx, node, path);
      if (on === undefined) return undefined;
      if (!on) {
        report(ctx, node, path, `"${path}: false" is the default; remove the key`, { hint: `write ${path}: true or a mapping of its settings` });
        return undefined;
      }
      return {};
    }
    const before = ctx.issues.length;
    const value = readMapping(ctx, node, path, fields);
    if (value === undefined || ctx.issues.length > before) return undefined;
    if (value.store === 'memory' && value.path !== undefined) {
      report(ctx, valueNode(ctx, node, 'path') ?? node, childPath(path, 'path'), `"${childPath(path, 'path')}" does not apply to store: memory (it would be ignored)`);
      return undefined;
    }
    return value;
  };
}
