import { Box, Static, Text } from 'ink';
import type { ReactNode } from 'react';
import { formatCost, formatDuration, formatTokens } from './chat-format.js';
import type { FinishedItem } from './chat-state.js';
import { paint } from './chat-theme.js';
import { Markdown } from './Markdown.js';
import { ToolCard } from './ToolCard.js';

function Item({ item, color, width }: { item: FinishedItem; color: boolean; width: number }): ReactNode {
  switch (item.kind) {
    case 'user':
      return (
        <Box marginTop={1}>
          <Text {...paint(color, { color: 'blue', bold: true })}>{'› '}</Text>
          <Text {...paint(color, { bold: true })}>{item.text}</Text>
        </Box>
      );
    case 'text':
      return (
        <Box marginBottom={item.gap === true ? 1 : 0}>
          <Markdown text={item.text} color={color} />
        </Box>
      );
    case 'tool':
      return <ToolCard card={item.card} color={color} width={width} />;
    case 'notice':
      return <Text {...paint(color, item.tone === 'error' ? { color: 'red' } : item.tone === 'warn' ? { color: 'yellow' } : { dimColor: true })}>{item.text}</Text>;
    case 'turn-end':
      return (
        <Text {...paint(color, item.status === 'completed' ? { dimColor: true } : { color: 'yellow' })}>
          {`${item.status === 'completed' ? 'done' : item.status} in ${formatDuration(item.durationMs)} · ${formatTokens(item.tokens)} tokens · ${formatCost(item.costUsd)}`}
        </Text>
      );
  }
}

/** Finished turns, printed once above the live region (Ink `<Static>`: never re-rendered). */
export function Transcript({ items, color, width }: { items: readonly FinishedItem[]; color: boolean; width: number }): ReactNode {
  return <Static items={items as FinishedItem[]}>{(item) => <Item key={item.id} item={item} color={color} width={width} />}</Static>;
}
