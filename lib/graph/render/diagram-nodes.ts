import type { GraphDefinition, NodeSpec } from '../node-spec.js';
import { diagramId } from './layout-mermaid.js';

/** One box of the drawing of a graph (see graphToLayoutMermaid). */
export interface DiagramNode {
  /** The Mermaid id: `plan`, `team__left` (a parallel member), `review__check` (inside a subgraph). */
  key: string;
  /** The node's name in its own graph. */
  name: string;
  /** The text in its box: the name, plus ` ⏸` when it asks before it runs (groups: their title). */
  label: string;
  kind: NodeSpec['kind'];
  /** 0 at the top level, +1 inside each group or subgraph. */
  depth: number;
  /** The key of the group or subgraph around it. */
  parent?: string;
  /** Subgraphs: the child graph's name. */
  childGraph?: string;
}

/**
 * Every node of a graph as drawn, parents before their members (top-level order, then each group's
 * members, each subgraph's nodes). A live view keys node states by `key`.
 */
export function diagramNodes(def: GraphDefinition, prefix = '', depth = 0, parent?: string): DiagramNode[] {
  const out: DiagramNode[] = [];
  for (const spec of def.nodes.values()) {
    const key = diagramId(prefix, spec.name);
    const ask = spec.options.interruptBefore !== undefined && spec.options.interruptBefore !== false ? ' ⏸' : '';
    const base = { key, name: spec.name, kind: spec.kind, depth, ...(parent === undefined ? {} : { parent }) };
    switch (spec.kind) {
      case 'agent':
      case 'function':
        out.push({ ...base, label: `${spec.name}${ask}` });
        break;
      case 'parallel':
        out.push({ ...base, label: `${spec.name} ‖ ${spec.merge}${ask}` });
        for (const member of spec.members) out.push({ key: diagramId(`${key}__`, member.name), name: member.name, label: member.name, kind: member.kind, depth: depth + 1, parent: key });
        break;
      case 'subgraph': {
        const child = spec.graph.definition();
        out.push({ ...base, label: `${spec.name}${ask}`, childGraph: child.name });
        out.push(...diagramNodes(child, `${key}__`, depth + 1, key));
        break;
      }
    }
  }
  return out;
}
