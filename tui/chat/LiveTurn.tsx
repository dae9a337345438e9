import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { LiveTurn as LiveTurnData } from './chat-state.js';
import { paint } from './chat-theme.js';
import { layoutLive, type LiveItem, type TextRow } from './live-layout.js';
import { ToolCard } from './ToolCard.js';

function toneStyle(color: boolean, tone: TextRow['tone']): ReturnType<typeof paint> {
  switch (tone) {
    case 'heading':
      return paint(color, { bold: true });
    case 'quote':
    case 'lang':
      return paint(color, { dimColor: true });
    case 'code':
      return paint(color, { color: 'cyan' });
    case 'plain':
      return {};
  }
}

function Row({ row, color }: { row: TextRow; color: boolean }): ReactNode {
  if (row.prefix === '' && row.spans.length === 0) return <Text> </Text>;
  return (
    <Text wrap="truncate-end" {...toneStyle(color, row.tone)}>
      {row.prefix}
      {row.spans.map((span, i) => {
        if (span.kind === 'bold') return <Text key={i} {...paint(color, { bold: true })}>{span.text}</Text>;
        if (span.kind === 'code' && row.tone !== 'code') return <Text key={i} {...paint(color, { color: 'cyan' })}>{span.text}</Text>;
        return <Text key={i}>{span.text}</Text>;
      })}
    </Text>
  );
}

function Item({ item, color, width }: { item: LiveItem; color: boolean; width: number }): ReactNode {
  switch (item.kind) {
    case 'more':
      return (
        <Text wrap="truncate-end" {...paint(color, { dimColor: true })}>
          … more above (printed in full when complete)
        </Text>
      );
    case 'text':
      return <Row row={item.row} color={color} />;
    case 'tool':
      return <ToolCard card={item.card} color={color} width={width} compact={item.compact} />;
  }
}

/**
 * The unfinished tail of the running turn in at most `maxRows` terminal rows: the newest rows of
 * the streamed text (wrapped at `width`) and the tool cards still running or waiting for
 * approval (live-layout.ts). Nothing when there is no room.
 */
export function LiveTurn({ turn, color, width, maxRows }: { turn: LiveTurnData; color: boolean; width: number; maxRows: number }): ReactNode {
  if (maxRows <= 0) return null;
  const items = layoutLive(turn, width, maxRows, color);
  if (items.length === 0) return <Text {...paint(color, { dimColor: true })}>{'⊷ thinking…'}</Text>;
  return (
    <Box flexDirection="column">
      {items.map((item, i) => (
        <Item key={i} item={item} color={color} width={width} />
      ))}
    </Box>
  );
}
