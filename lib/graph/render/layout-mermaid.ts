import { END } from '../constants.js';
import type { GraphDefinition, NodeSpec } from '../node-spec.js';
import { askMark, leafNodeLine, mermaidLabel as label, mermaidNodeId } from './mermaid-syntax.js';

/**
 * The Mermaid flowchart `visualize('ascii')` lays out (with beautiful-mermaid's ASCII renderer).
 * It draws the same graph as {@link graphToMermaid}, adapted to what a character-grid layout
 * draws well:
 * - an edge to a parallel group fans out to each member and fans in from each member (the
 *   renderer cannot attach an arrow to a Mermaid subgraph box);
 * - an edge to a subgraph enters its `start` node and leaves from its `end` node;
 * - conditional edges are dashed without labels (the router's own node is the one they leave;
 *   a label per edge repeats it and widens the drawing); a router without declared targets
 *   points at a `?` choice;
 * - group titles are short (`team ‖ append`; a subgraph's box carries its node name: the renderer
 *   sizes a box to its nodes and cuts a longer title), START / END are circles; with
 *   `charset: 'ascii'` the marks are ASCII too (`||`, `!ask` for ⏸);
 * - a node with neither an edge nor a router (the run ends after it) gets an arrow to END.
 *
 * Node ids are those of {@link graphToMermaid} (`prefix__name`, END → `__end__`), so a view can
 * find a node by its label.
 */
export function graphToLayoutMermaid(def: GraphDefinition, options: { charset?: 'unicode' | 'ascii' } = {}): string {
  const marks = options.charset === 'ascii' ? ASCII_MARKS : UNICODE_MARKS;
  const lines = ['flowchart TD', '  __start__(("START"))'];
  const edges: string[] = [];
  draw(def, '', lines, edges, '  ', marks);
  lines.push('  __end__(("END"))');
  if (def.entry !== undefined) for (const to of entries(def, '', def.entry)) edges.unshift(`  __start__ --> ${to}`);
  return [...lines, ...edges].join('\n') + '\n';
}

/** The marks in titles and labels: a node that asks before it runs, a parallel group. */
const UNICODE_MARKS = { ask: ' ⏸', parallel: ' ‖ ' };
const ASCII_MARKS = { ask: ' !ask', parallel: ' || ' };
type Marks = typeof UNICODE_MARKS;

/** The Mermaid id of node `name` drawn with `prefix` (a group's or subgraph's id plus `__`). */
export function diagramId(prefix: string, name: string): string {
  return id(prefix, name);
}

function id(prefix: string, name: string): string {
  return name === END ? `${prefix}__end__` : mermaidNodeId(prefix, name);
}

/** The ids an arrow into node `name` of `def` (drawn with `prefix`) points at. */
function entries(def: GraphDefinition, prefix: string, name: string): string[] {
  const spec = def.nodes.get(name);
  const node = id(prefix, name);
  if (spec?.kind === 'parallel') return spec.members.map((m) => id(`${node}__`, m.name));
  if (spec?.kind === 'subgraph') return [`${node}____start__`];
  return [node];
}

/** The ids an arrow out of node `name` leaves from. */
function exits(def: GraphDefinition, prefix: string, name: string): string[] {
  const spec = def.nodes.get(name);
  const node = id(prefix, name);
  if (spec?.kind === 'parallel') return spec.members.map((m) => id(`${node}__`, m.name));
  if (spec?.kind === 'subgraph') return [`${node}____end__`];
  return [node];
}

function draw(def: GraphDefinition, prefix: string, lines: string[], edges: string[], indent: string, marks: Marks): void {
  for (const spec of def.nodes.values()) drawNode(spec, prefix, lines, edges, indent, marks);
  const connect = (from: string, to: string, arrow: string): void => {
    for (const a of exits(def, prefix, from)) for (const b of entries(def, prefix, to)) edges.push(`  ${a} ${arrow} ${b}`);
  };
  for (const [from, to] of def.edges) connect(from, to, '-->');
  // A node with neither an edge nor a router ends the run: drawn as an arrow to END.
  for (const name of def.nodes.keys()) if (!def.edges.has(name) && !def.routers.has(name)) connect(name, END, '-->');
  for (const [from, router] of def.routers) {
    if (router.targets) for (const to of router.targets) connect(from, to, '-.->');
    else {
      const choice = `${id(prefix, from)}__route`;
      lines.push(`${indent}${choice}{"?"}`);
      for (const a of exits(def, prefix, from)) edges.push(`  ${a} -.-> ${choice}`);
    }
  }
}

function drawNode(spec: NodeSpec, prefix: string, lines: string[], edges: string[], indent: string, marks: Marks): void {
  const node = id(prefix, spec.name);
  const ask = askMark(spec, marks.ask);
  const leaf = leafNodeLine(spec, node, ask, indent);
  if (leaf !== undefined) {
    lines.push(leaf);
    return;
  }
  switch (spec.kind) {
    case 'parallel':
      lines.push(`${indent}subgraph ${node}[${label(`${spec.name}${marks.parallel}${spec.merge}${ask}`)}]`);
      for (const member of spec.members) drawNode(member, `${node}__`, lines, edges, `${indent}  `, marks);
      lines.push(`${indent}end`);
      return;
    case 'subgraph': {
      const child = spec.graph.definition();
      const inner = `${node}__`;
      lines.push(`${indent}subgraph ${node}[${label(`${spec.name}${ask}`)}]`);
      lines.push(`${indent}  ${inner}__start__(("start"))`);
      draw(child, inner, lines, edges, `${indent}  `, marks);
      lines.push(`${indent}  ${inner}__end__(("end"))`);
      if (child.entry !== undefined) for (const to of entries(child, inner, child.entry)) edges.push(`  ${inner}__start__ --> ${to}`);
      lines.push(`${indent}end`);
      return;
    }
  }
}
