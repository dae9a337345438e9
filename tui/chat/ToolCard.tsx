import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { formatDuration, headLines, summarizeArgs } from './chat-format.js';
import type { ToolCard as ToolCardData } from './chat-state.js';
import { paint, TOOL_GLYPHS, toolColor } from './chat-theme.js';

/** Lines of tool output shown before it is cut (Ctrl+O prints the whole output). */
export const TOOL_OUTPUT_LINES = 3;

/** A tool call: status glyph, name, arguments, duration, and the first lines of its result. */
export function ToolCard({ card, color, width = 100 }: { card: ToolCardData; color: boolean; width?: number }): ReactNode {
  const glyph = TOOL_GLYPHS[card.status];
  const output = card.output === undefined || card.output === '' ? undefined : headLines(card.output, TOOL_OUTPUT_LINES, Math.max(20, width - 6));
  const state = card.status === 'approval' ? 'awaiting approval' : card.status === 'running' || card.status === 'pending' ? 'running…' : undefined;
  return (
    <Box flexDirection="column">
      <Text>
        <Text {...paint(color, { color: toolColor(card.status) })}>{glyph}</Text> <Text {...paint(color, { bold: true })}>{card.toolName}</Text>
        <Text {...paint(color, { dimColor: true })}>({summarizeArgs(card.args, Math.max(20, width - card.toolName.length - 20))})</Text>
        {card.durationMs !== undefined && (card.status === 'success' || card.status === 'error') ? <Text {...paint(color, { dimColor: true })}> {formatDuration(card.durationMs)}</Text> : null}
        {state !== undefined ? <Text {...paint(color, { dimColor: true })}> {state}</Text> : null}
      </Text>
      {output !== undefined ? (
        <Box flexDirection="column" paddingLeft={2}>
          {output.lines.map((line, i) => (
            <Text key={i} {...paint(color, card.status === 'success' ? { dimColor: true } : { color: 'red' })}>
              {i === 0 ? '⎿ ' : '  '}
              {line}
            </Text>
          ))}
          {output.hidden > 0 ? <Text {...paint(color, { dimColor: true })}>{`  … ${output.hidden} more line${output.hidden === 1 ? '' : 's'} (ctrl+o to show all)`}</Text> : null}
        </Box>
      ) : null}
    </Box>
  );
}
