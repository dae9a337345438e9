import { deref, describeNode, report, childPath, type ReadContext } from '../../config/read-context.js';
import { readMapping, group } from '../../config/read-mapping.js';
import { bool, num, oneOf, str, type FieldTable, type Reader } from '../../config/readers.js';
import { ContextMode, ErrorPolicy, MergePolicy } from '../constants.js';

/** A node of a graph file as read (paths still relative to the file). */
export interface GraphFileNode {
  agent?: string;
  function?: string;
  graph?: string;
  parallel?: Record<string, GraphFileNode>;
  merge?: MergePolicy;
  next?: string;
  contextMode?: ContextMode;
  contextN?: number;
  errorPolicy?: ErrorPolicy;
  retry?: { limit?: number; baseDelayMs?: number; maxDelayMs?: number };
  interruptBefore?: boolean | string;
  inputMap?: Record<string, string>;
  outputMap?: Record<string, string>;
}

/** A graph file as read. */
export interface GraphFileConfig {
  kind: 'graph';
  name?: string;
  description?: string;
  entry: string;
  maxSteps?: number;
  stallThreshold?: number;
  maxTotalTokens?: number;
  maxCostUsd?: number;
  errorPolicy?: ErrorPolicy;
  retry?: { limit?: number; baseDelayMs?: number; maxDelayMs?: number };
  nodes: Record<string, GraphFileNode>;
  edges?: { from: string; to: string }[];
  conditionalEdges?: { from: string; router: string; targets?: string[] }[];
}

const RETRY_FIELDS: FieldTable = {
  limit: { read: num({ integer: true, min: 0 }), type: 'integer ≥ 0', description: 'Retries after the first attempt.', default: '3' },
  base_delay_ms: { read: num({ min: 0 }), type: 'number ≥ 0', description: 'The first retry delay; doubles each time.', default: '200' },
  max_delay_ms: { read: num({ min: 0 }), type: 'number ≥ 0', description: 'The longest retry delay.', default: '5000' },
};

/** A string or true/false. */
const boolOrString: Reader<boolean | string> = (ctx, node, path) => {
  const target = deref(ctx, node);
  if (ctx.yaml.isScalar(target) && typeof target.value === 'boolean') return bool()(ctx, node, path);
  return str({ nonEmpty: true })(ctx, node, path);
};

/** A mapping of string to string (input_map, output_map). */
const stringMap: Reader<Record<string, string>> = (ctx, node, path) => {
  const target = deref(ctx, node);
  if (!ctx.yaml.isMap(target)) {
    report(ctx, node, path, `"${path}" must be a mapping of data keys; got ${describeNode(ctx, node)}`);
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const pair of target.items) {
    const key = ctx.yaml.isScalar(pair.key) ? pair.key.value : undefined;
    if (typeof key !== 'string') {
      report(ctx, pair.key, path, `keys under "${path}" must be strings`);
      continue;
    }
    const value = str({ nonEmpty: true })(ctx, pair.value, childPath(path, key));
    if (value !== undefined) out[key] = value;
  }
  return out;
};

/** A mapping of name → node. */
function nodeMap(fields: () => FieldTable): Reader<Record<string, GraphFileNode>> {
  return (ctx, node, path) => {
    const target = deref(ctx, node);
    if (!ctx.yaml.isMap(target)) {
      report(ctx, node, path, `"${path}" must be a mapping of node names to nodes; got ${describeNode(ctx, node)}`);
      return undefined;
    }
    const out: Record<string, GraphFileNode> = {};
    for (const pair of target.items) {
      const key = ctx.yaml.isScalar(pair.key) ? pair.key.value : undefined;
      if (typeof key !== 'string' || key === '' || /[|:/]/.test(key) || key === '__end__' || key === 'END') {
        report(ctx, pair.key, path, `node names must be non-empty strings without | : / (and not END); got ${describeNode(ctx, pair.key)}`);
        continue;
      }
      const nodePath = childPath(path, key);
      const value = readMapping(ctx, pair.value, nodePath, fields()) as GraphFileNode | undefined;
      if (value === undefined) continue;
      const kinds = (['agent', 'function', 'graph', 'parallel'] as const).filter((k) => value[k] !== undefined);
      if (kinds.length !== 1) {
        report(ctx, pair.value, nodePath, kinds.length === 0 ? `node "${key}" needs one of agent, function, graph or parallel` : `node "${key}" has ${kinds.join(' and ')}: a node is one of agent, function, graph or parallel`);
        continue;
      }
      if (value.merge !== undefined && value.parallel === undefined) report(ctx, pair.value, childPath(nodePath, 'merge'), `"merge" applies to parallel nodes only`);
      if ((value.inputMap !== undefined || value.outputMap !== undefined) && value.graph === undefined) report(ctx, pair.value, nodePath, `"input_map" / "output_map" apply to graph (subgraph) nodes only`);
      if ((value.contextMode !== undefined || value.contextN !== undefined) && value.agent === undefined) report(ctx, pair.value, nodePath, `"context_mode" / "context_n" apply to agent nodes only`);
      if (value.contextMode === ContextMode.SUMMARY || value.contextMode === ContextMode.CUSTOM) report(ctx, pair.value, childPath(nodePath, 'context_mode'), `context_mode ${value.contextMode} needs code (a summary provider, a function): use the library API`);
      out[key] = value;
    }
    return out;
  };
}

const MEMBER_FIELDS: FieldTable = {
  agent: { read: str({ nonEmpty: true }), type: 'path', description: 'An agent YAML file.' },
  function: { read: str({ nonEmpty: true }), type: 'module#export', description: 'A function (or async generator) exported by a module.' },
  context_mode: { read: oneOf([ContextMode.LAST_MESSAGE, ContextMode.LAST_N, ContextMode.FULL, ContextMode.SUMMARY, ContextMode.CUSTOM]), type: 'string', description: 'What an agent node gets as input.', default: 'last_message' },
  context_n: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', description: 'last_n: how many messages.', default: '5' },
  error_policy: { read: oneOf(Object.values(ErrorPolicy)), type: 'abort | skip | retry', description: 'What a failure of this node does.' },
  retry: { read: group(RETRY_FIELDS), type: 'mapping', description: 'Retry settings (error_policy retry).', fields: RETRY_FIELDS },
};

const NODE_FIELDS: FieldTable = {
  ...MEMBER_FIELDS,
  graph: { read: str({ nonEmpty: true }), type: 'path', description: 'A graph YAML file run as a subgraph.' },
  parallel: { read: nodeMap(() => MEMBER_FIELDS), type: 'mapping', description: 'Members run at once (agent or function nodes).' },
  merge: { read: oneOf(Object.values(MergePolicy)), type: 'last_wins | first_wins | append', description: 'How parallel members merge.', default: 'last_wins' },
  next: { read: str({ nonEmpty: true }), type: 'node name | END', description: 'The static successor.' },
  interrupt_before: { read: boolOrString, type: 'boolean | string', description: 'Ask a person before the node runs (a string is the question).' },
  input_map: { read: stringMap, type: 'mapping', description: 'Subgraph: parent data key → child data key.' },
  output_map: { read: stringMap, type: 'mapping', description: 'Subgraph: child data key → parent data key.' },
};

const EDGE_FIELDS: FieldTable = {
  from: { read: str({ nonEmpty: true }), type: 'node name', description: 'The source node.', required: true },
  to: { read: str({ nonEmpty: true }), type: 'node name | END', description: 'The target node.', required: true },
};

const CONDITIONAL_FIELDS: FieldTable = {
  from: { read: str({ nonEmpty: true }), type: 'node name', description: 'The source node.', required: true },
  router: { read: str({ nonEmpty: true }), type: 'module#export', description: 'A function of the state returning the next node(s).', required: true },
  targets: { read: list(str({ nonEmpty: true })), type: 'list of node names', description: 'The nodes the router may return (drawn in diagrams; another return is an error).' },
};

function list<T>(item: Reader<T>): Reader<T[]> {
  return (ctx: ReadContext, node, path) => {
    const target = deref(ctx, node);
    if (!ctx.yaml.isSeq(target)) {
      report(ctx, node, path, `"${path}" must be a list; got ${describeNode(ctx, node)}`);
      return undefined;
    }
    const out: T[] = [];
    target.items.forEach((element, i) => {
      const value = item(ctx, element, childPath(path, i));
      if (value !== undefined) out.push(value);
    });
    return out;
  };
}

/** The top-level keys of a graph file. */
export const GRAPH_FIELDS: FieldTable = {
  kind: { read: oneOf(['graph']), type: 'graph', description: 'Marks a graph file.', required: true },
  name: { read: str({ nonEmpty: true }), type: 'string', description: 'The graph name (events, traces, diagrams).' },
  description: { read: str(), type: 'string', description: 'What the graph does.' },
  entry: { read: str({ nonEmpty: true }), type: 'node name', description: 'The node a run starts at.', required: true },
  max_steps: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', description: 'Node executions per run.', default: '50' },
  stall_threshold: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', description: 'Steps without a state change before stall-detected.', default: '3' },
  max_total_tokens: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', description: 'Token budget across all nodes.' },
  max_cost_usd: { read: num({ min: 0 }), type: 'number ≥ 0', description: 'Cost budget across all nodes.' },
  error_policy: { read: oneOf(Object.values(ErrorPolicy)), type: 'abort | skip | retry', description: 'What a node failure does (nodes may override).', default: 'abort' },
  retry: { read: group(RETRY_FIELDS), type: 'mapping', description: 'Retry settings.', fields: RETRY_FIELDS },
  nodes: { read: nodeMap(() => NODE_FIELDS), type: 'mapping', description: 'Node name → node.', required: true },
  edges: { read: list(group(EDGE_FIELDS)), type: 'list', description: 'Static edges.' },
  conditional_edges: { read: list(group(CONDITIONAL_FIELDS)), type: 'list', description: 'Router edges.' },
};
