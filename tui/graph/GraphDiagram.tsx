import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { cutToWidth } from '../../lib/core/display-width.js';
import type { Segment } from './diagram-paint.js';
import { NODE_COLORS } from './graph-theme.js';
import { paint } from '../chat/chat-theme.js';

/** The rows of the drawing to show: all of them, or `maxRows` around `focusRow` (the running node). */
export function visibleRows(total: number, maxRows: number, focusRow: number | undefined): { from: number; to: number } {
  if (total <= maxRows) return { from: 0, to: total };
  const centre = focusRow ?? 0;
  const from = Math.min(Math.max(0, centre - Math.floor(maxRows / 2)), total - maxRows);
  return { from, to: from + maxRows };
}

/**
 * The graph's drawing with each node's box in its state's colour (pending grey, running yellow,
 * done green, failed red, interrupted magenta). Rows are cut to `width` (never wrap); a drawing
 * taller than `maxRows` shows the window around `focusRow`, with a line saying how many rows are
 * above and below.
 */
export function GraphDiagram({ rows, color, width, maxRows, focusRow }: { rows: readonly Segment[][]; color: boolean; width: number; maxRows: number; focusRow?: number | undefined }): ReactNode {
  const room = Math.max(3, maxRows);
  const window = visibleRows(rows.length, rows.length > room ? room - 1 : room, focusRow);
  const hidden = rows.length - (window.to - window.from);
  return (
    <Box flexDirection="column">
      {rows.slice(window.from, window.to).map((segments, i) => (
        <Text key={window.from + i} wrap="truncate-end">
          {cutSegments(segments, width).map((segment, j) => (
            <Text key={j} {...paint(color, segment.status === undefined ? {} : { color: NODE_COLORS[segment.status], bold: segment.status === 'running' })}>
              {segment.text}
            </Text>
          ))}
        </Text>
      ))}
      {hidden > 0 ? <Text {...paint(color, { dimColor: true })}>{`  ↕ ${window.from} rows above, ${rows.length - window.to} below`}</Text> : null}
    </Box>
  );
}

/** The segments of one row cut to `width` columns. */
function cutSegments(segments: readonly Segment[], width: number): Segment[] {
  const out: Segment[] = [];
  let left = width;
  for (const segment of segments) {
    if (left <= 0) break;
    const chars = [...segment.text];
    const text = chars.length <= left ? segment.text : cutToWidth(segment.text, left);
    out.push({ ...segment, text });
    left -= chars.length;
  }
  // Trailing blanks only take room.
  const last = out.at(-1);
  if (last !== undefined && last.status === undefined) last.text = last.text.trimEnd();
  return out;
}
