import type { GraphDefinition, NodeSpec } from '../node-spec.js';

/** A node in `toJSON()`. */
export interface GraphNodeJSON {
  name: string;
  kind: 'agent' | 'function' | 'parallel' | 'subgraph';
  /** Agent nodes: the agent's name. */
  agent?: string;
  /** Parallel groups: members and merge policy. */
  members?: GraphNodeJSON[];
  merge?: string;
  /** Subgraphs: the child graph. */
  graph?: GraphJSON;
  inputMap?: Record<string, string>;
  outputMap?: Record<string, string>;
  contextMode?: string;
  errorPolicy?: string;
  interruptBefore?: boolean;
}

/** `toJSON()`: the graph's structure. */
export interface GraphJSON {
  name: string;
  entry: string | null;
  nodes: GraphNodeJSON[];
  edges: { from: string; to: string }[];
  /** Conditional edges; `targets` null when the router declared none. */
  conditionalEdges: { from: string; targets: string[] | null }[];
}

/** The structure of a graph as plain JSON (END is `"__end__"`). */
export function graphToJSON(def: GraphDefinition): GraphJSON {
  return {
    name: def.name,
    entry: def.entry ?? null,
    nodes: [...def.nodes.values()].map(nodeJSON),
    edges: [...def.edges].map(([from, to]) => ({ from, to })),
    conditionalEdges: [...def.routers].map(([from, r]) => ({ from, targets: r.targets ? [...r.targets] : null })),
  };
}

function nodeJSON(spec: NodeSpec): GraphNodeJSON {
  const o = spec.options;
  const common = {
    ...(o.contextMode === undefined ? {} : { contextMode: o.contextMode }),
    ...(o.errorPolicy === undefined ? {} : { errorPolicy: o.errorPolicy }),
    ...(o.interruptBefore === undefined || o.interruptBefore === false ? {} : { interruptBefore: true }),
  };
  switch (spec.kind) {
    case 'agent':
      return { name: spec.name, kind: 'agent', agent: spec.agent.name, ...common };
    case 'function':
      return { name: spec.name, kind: 'function', ...common };
    case 'parallel':
      return { name: spec.name, kind: 'parallel', merge: spec.merge, members: spec.members.map(nodeJSON), ...common };
    case 'subgraph':
      return {
        name: spec.name,
        kind: 'subgraph',
        graph: graphToJSON(spec.graph.definition()),
        ...(spec.inputMap ? { inputMap: spec.inputMap } : {}),
        ...(spec.outputMap ? { outputMap: spec.outputMap } : {}),
        ...common,
      };
  }
}

