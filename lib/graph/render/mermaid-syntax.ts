import type { NodeSpec } from '../node-spec.js';

/** A Mermaid-safe id for node `name` drawn with `prefix`: characters outside `[A-Za-z0-9_]` become `_<hex>_`. */
export function mermaidNodeId(prefix: string, name: string): string {
  return `${prefix}${name.replace(/[^A-Za-z0-9_]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`)}`;
}

/** A quoted Mermaid label (`"` escaped as `#quot;`). */
export function mermaidLabel(text: string): string {
  return `"${text.replace(/"/g, '#quot;')}"`;
}

/** `mark` when the node asks a person before it runs (`interruptBefore`), else ''. */
export function askMark(spec: NodeSpec, mark: string): string {
  return spec.options.interruptBefore !== undefined && spec.options.interruptBefore !== false ? mark : '';
}

/**
 * The line of an agent (rectangle) or function (rounded box) node, or undefined for a parallel
 * group or subgraph (each drawing lays those out its own way).
 */
export function leafNodeLine(spec: NodeSpec, node: string, ask: string, indent: string): string | undefined {
  if (spec.kind === 'agent') return `${indent}${node}[${mermaidLabel(`${spec.name}${ask}`)}]`;
  if (spec.kind === 'function') return `${indent}${node}(${mermaidLabel(`${spec.name}${ask}`)})`;
  return undefined;
}
