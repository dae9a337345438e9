import type { DiagramNode } from '../../lib/graph/render/diagram-nodes.js';
import type { NodeStatus } from './graph-view-state.js';

/** A run of characters drawn in one style. */
export interface Segment {
  text: string;
  status?: NodeStatus;
}

/** Where a node's box is in the drawing (rows and columns, inclusive; columns count characters). */
export interface BoxPlace {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

const VERTICAL = new Set(['│', '|', '├', '┤', '┼']);

/**
 * Finds each node's box in the drawing by its label: a row where the label sits between two
 * vertical borders with only blanks around it; the box runs up and down from there while the left
 * border goes on. A label found more than once (two subgraphs with the same inner names) is placed
 * at none of them: the view never colours the wrong box.
 */
export function locateBoxes(lines: readonly string[], nodes: readonly DiagramNode[]): Map<string, BoxPlace> {
  const grid = lines.map((line) => [...line]);
  const found = new Map<string, BoxPlace>();
  for (const node of nodes) {
    const places: BoxPlace[] = [];
    const label = [...node.label];
    grid.forEach((row, r) => {
      for (let c = 0; c + label.length <= row.length; c += 1) {
        if (!label.every((ch, i) => row[c + i] === ch)) continue;
        let left = c - 1;
        while (left >= 0 && row[left] === ' ') left -= 1;
        let right = c + label.length;
        while (right < row.length && row[right] === ' ') right += 1;
        if (left < 0 || right >= row.length || !VERTICAL.has(row[left] as string) || !VERTICAL.has(row[right] as string)) continue;
        let top = r;
        while (top > 0 && VERTICAL.has(grid[top - 1]?.[left] ?? '')) top -= 1;
        let bottom = r;
        while (bottom + 1 < grid.length && VERTICAL.has(grid[bottom + 1]?.[left] ?? '')) bottom += 1;
        places.push({ top: Math.max(0, top - 1), bottom: Math.min(grid.length - 1, bottom + 1), left, right });
      }
    });
    if (places.length === 1) found.set(node.key, places[0] as BoxPlace);
  }
  return found;
}

/**
 * The drawing split into segments styled by node status: each located box (border and label)
 * takes its node's status; groups and subgraphs are painted before their members, so a member's
 * colour wins inside its group's box. Edges and blanks stay unstyled.
 */
export function paintDiagram(lines: readonly string[], nodes: readonly DiagramNode[], places: ReadonlyMap<string, BoxPlace>, status: (key: string) => NodeStatus): Segment[][] {
  const grid = lines.map((line) => [...line]);
  const styles: (NodeStatus | undefined)[][] = grid.map((row) => row.map(() => undefined));
  for (const node of nodes) {
    const place = places.get(node.key);
    if (place === undefined) continue;
    const s = status(node.key);
    for (let r = place.top; r <= place.bottom; r += 1) {
      const row = styles[r];
      if (row === undefined) continue;
      for (let c = place.left; c <= place.right && c < row.length; c += 1) {
        // Inside a group's box only its border and title: the members paint their own boxes.
        const border = r === place.top || r === place.bottom || c === place.left || c === place.right;
        if (node.kind === 'parallel' || node.kind === 'subgraph' ? border || grid[r]?.[c] !== ' ' && r <= place.top + 1 : true) row[c] = s;
      }
    }
  }
  return grid.map((row, r) => {
    const segments: Segment[] = [];
    row.forEach((ch, c) => {
      const s = styles[r]?.[c];
      const last = segments.at(-1);
      if (last !== undefined && last.status === s) last.text += ch;
      else segments.push(s === undefined ? { text: ch } : { text: ch, status: s });
    });
    return segments;
  });
}
