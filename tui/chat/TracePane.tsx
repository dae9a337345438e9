import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { displayWidth } from '../../lib/core/display-width.js';
import { cut, formatDuration } from './chat-format.js';
import type { TraceRow } from './chat-state.js';
import { paint, TRACE_COLORS, TRACE_GLYPHS } from './chat-theme.js';

/** Rows the pane takes with `count` trace rows shown at most `maxRows` at a time (border, title, rows — each cut to one row). */
export function tracePaneRows(count: number, maxRows: number): number {
  return 2 + 1 + Math.max(1, Math.min(count, Math.max(1, maxRows)));
}

/** The live trace: the step tree of the current run (its last `maxRows` rows), built from events. */
export function TracePane({ rows, color, width, maxRows }: { rows: readonly TraceRow[]; color: boolean; width: number; maxRows: number }): ReactNode {
  const shown = rows.slice(-Math.max(1, maxRows));
  return (
    <Box flexDirection="column" borderStyle="single" {...(color ? { borderColor: 'gray' } : {})} paddingX={1}>
      <Text wrap="truncate-end" {...paint(color, { bold: true })}>
        trace{rows.length > shown.length ? ` (last ${shown.length} of ${rows.length} steps)` : ''}
      </Text>
      {shown.length === 0 ? <Text {...paint(color, { dimColor: true })}>no run yet</Text> : null}
      {shown.map((row) => (
        <Text key={row.key} wrap="truncate-end">
          {'  '.repeat(row.depth)}
          <Text {...paint(color, { color: TRACE_COLORS[row.status] })}>{TRACE_GLYPHS[row.status]}</Text> {row.label}
          <Text {...paint(color, { dimColor: true })}>
            {cut(`${row.detail === undefined ? '' : ` ${row.detail}`}${row.durationMs === undefined ? '' : ` ${formatDuration(row.durationMs)}`}`, Math.max(10, width - displayWidth(row.label) - row.depth * 2 - 8))}
          </Text>
        </Text>
      ))}
    </Box>
  );
}
