import { Text } from 'ink';
import type { ReactNode } from 'react';
import type { DiagramNode } from '../../lib/graph/render/diagram-nodes.js';
import { formatDuration } from '../chat/chat-format.js';
import { paint } from '../chat/chat-theme.js';
import type { GraphViewState } from './graph-view-state.js';
import { NODE_COLORS, NODE_GLYPHS, SPINNER_FRAMES } from './graph-theme.js';

/**
 * Every node with its state on wrapped lines: `✓ draft 12ms  ⠋ write  ○ publish`, the running ones
 * with a spinner frame, a node that ran more than once with its count (`✓ review ×2`). Groups
 * and subgraphs are listed before their members. Readable without colour.
 */
export function NodeStrip({ state, nodes, color, spinner }: { state: GraphViewState; nodes: readonly DiagramNode[]; color: boolean; spinner: number }): ReactNode {
  return (
    <Text wrap="wrap">
      {nodes.map((node, i) => {
        const view = state.nodes[node.key];
        const status = view?.status ?? 'pending';
        const glyph = status === 'running' ? (SPINNER_FRAMES[spinner % SPINNER_FRAMES.length] as string) : NODE_GLYPHS[status];
        const extra = `${(view?.runs ?? 0) > 1 ? ` ×${view?.runs ?? 0}` : ''}${status === 'done' && view?.durationMs !== undefined ? ` ${formatDuration(view.durationMs)}` : ''}`;
        return (
          <Text key={node.key}>
            {i > 0 ? '  ' : ''}
            <Text {...paint(color, { color: NODE_COLORS[status] })}>{glyph}</Text> <Text {...paint(color, status === 'running' ? { bold: true } : {})}>{node.name}</Text>
            <Text {...paint(color, { dimColor: true })}>{extra}</Text>
          </Text>
        );
      })}
    </Text>
  );
}
