import { END } from '../constants.js';
import type { GraphDefinition, NodeSpec } from '../node-spec.js';
import { askMark, leafNodeLine, mermaidLabel as label, mermaidNodeId } from './mermaid-syntax.js';

/**
 * A Mermaid flowchart of the graph: START → entry; agents as rectangles, functions as rounded
 * boxes; static edges solid; conditional edges dashed and labelled with the router's node (a
 * router without declared targets points at a `?` choice); parallel groups and subgraphs as
 * Mermaid subgraphs (a subgraph's nodes drawn inside it).
 */
export function graphToMermaid(def: GraphDefinition): string {
  const lines = ['flowchart TD', '  __start__([START])', '  __end__([END])'];
  draw(def, '', lines, '  ');
  if (def.entry !== undefined) lines.push(`  __start__ --> ${id('', def.entry)}`);
  return lines.join('\n') + '\n';
}

function id(prefix: string, name: string): string {
  return name === END ? '__end__' : mermaidNodeId(prefix, name);
}

function draw(def: GraphDefinition, prefix: string, lines: string[], indent: string): void {
  for (const spec of def.nodes.values()) drawNode(spec, prefix, lines, indent);
  for (const [from, to] of def.edges) lines.push(`${indent}${id(prefix, from)} --> ${to === END && prefix !== '' ? `${prefix}__end__` : id(prefix, to)}`);
  for (const [from, router] of def.routers) {
    const source = id(prefix, from);
    if (router.targets) {
      for (const to of router.targets) lines.push(`${indent}${source} -.->|${label(from)}| ${to === END && prefix !== '' ? `${prefix}__end__` : id(prefix, to)}`);
    } else {
      lines.push(`${indent}${source}__route{"?"}`, `${indent}${source} -.->|${label(from)}| ${source}__route`);
    }
  }
}

function drawNode(spec: NodeSpec, prefix: string, lines: string[], indent: string): void {
  const node = id(prefix, spec.name);
  const ask = askMark(spec, ' ⏸');
  const leaf = leafNodeLine(spec, node, ask, indent);
  if (leaf !== undefined) {
    lines.push(leaf);
    return;
  }
  switch (spec.kind) {
    case 'parallel':
      lines.push(`${indent}subgraph ${node}[${label(`${spec.name} · parallel ${spec.merge}${ask}`)}]`, `${indent}  direction LR`);
      for (const member of spec.members) drawNode(member, `${node}__`, lines, `${indent}  `);
      lines.push(`${indent}end`);
      return;
    case 'subgraph': {
      const child = spec.graph.definition();
      const inner = `${node}__`;
      lines.push(`${indent}subgraph ${node}[${label(`${spec.name} · subgraph ${child.name}${ask}`)}]`);
      lines.push(`${indent}  ${inner}__start__([start])`, `${indent}  ${inner}__end__([end])`);
      draw(child, inner, lines, `${indent}  `);
      if (child.entry !== undefined) lines.push(`${indent}  ${inner}__start__ --> ${id(inner, child.entry)}`);
      lines.push(`${indent}end`);
      return;
    }
  }
}
