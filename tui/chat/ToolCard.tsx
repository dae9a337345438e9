import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { displayWidth } from '../../lib/core/display-width.js';
import { formatDuration, headLines, summarizeArgs } from './chat-format.js';
import { TOOL_OUTPUT_LINES, type ToolCard as ToolCardData } from './chat-state.js';
import { paint, TOOL_GLYPHS, toolColor } from './chat-theme.js';

/** Output lines of a card as drawn at `width` (each cut to fit one row), or undefined without output. */
function outputOf(card: ToolCardData, width: number): { lines: string[]; hidden: number } | undefined {
  return card.output === undefined || card.output === '' ? undefined : headLines(card.output, TOOL_OUTPUT_LINES, Math.max(1, width - 4));
}

/**
 * Terminal rows a card takes at `width`: the header, the output lines and the "more lines" line
 * (every one cut to a single row). `compact`: the header only.
 */
export function toolCardRows(card: ToolCardData, width: number, compact = false): number {
  const output = compact ? undefined : outputOf(card, width);
  return 1 + (output === undefined ? 0 : output.lines.length + (output.hidden > 0 ? 1 : 0));
}

/**
 * A tool call: status glyph, name, arguments, duration, and the first lines of its result. Every
 * row is cut to `width` columns (never wraps), so its height is {@link toolCardRows}. `compact`
 * draws the header only (the live region when short of rows).
 */
export function ToolCard({ card, color, width = 100, compact = false }: { card: ToolCardData; color: boolean; width?: number; compact?: boolean }): ReactNode {
  const glyph = TOOL_GLYPHS[card.status];
  const output = compact ? undefined : outputOf(card, width);
  const state = card.status === 'approval' ? 'awaiting approval' : card.status === 'running' || card.status === 'pending' ? 'running…' : undefined;
  const duration = card.durationMs !== undefined && (card.status === 'success' || card.status === 'error') ? ` ${formatDuration(card.durationMs)}` : '';
  const suffix = `${duration}${state === undefined ? '' : ` ${state}`}`;
  const argsRoom = Math.max(8, width - displayWidth(card.toolName) - displayWidth(suffix) - 4);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text {...paint(color, { color: toolColor(card.status) })}>{glyph}</Text> <Text {...paint(color, { bold: true })}>{card.toolName}</Text>
        <Text {...paint(color, { dimColor: true })}>({summarizeArgs(card.args, argsRoom)})</Text>
        {suffix !== '' ? <Text {...paint(color, { dimColor: true })}>{suffix}</Text> : null}
      </Text>
      {output !== undefined ? (
        <Box flexDirection="column" paddingLeft={2}>
          {output.lines.map((line, i) => (
            <Text key={i} wrap="truncate-end" {...paint(color, card.status === 'success' ? { dimColor: true } : { color: 'red' })}>
              {i === 0 ? '⎿ ' : '  '}
              {line}
            </Text>
          ))}
          {output.hidden > 0 ? (
            <Text wrap="truncate-end" {...paint(color, { dimColor: true })}>{`  … ${output.hidden} more line${output.hidden === 1 ? '' : 's'} (ctrl+o to show all)`}</Text>
          ) : null}
        </Box>
      ) : null}
    </Box>
  );
}
