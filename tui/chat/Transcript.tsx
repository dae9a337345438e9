import { Box, Static, Text } from 'ink';
import { useLayoutEffect, type ReactNode } from 'react';
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

/** Props of the transcript. */
export interface TranscriptProps {
  /** Finished items not yet printed (and some that were: see `onPrinted`). */
  items: readonly FinishedItem[];
  /** The <Static>'s key: bumped when printed items were dropped, so the new list starts at its first item. */
  epoch: number;
  color: boolean;
  width: number;
  /**
   * Called after a commit with the id of the last item printed: those items may be dropped from
   * the state (the chat's `printed` action, which bumps `epoch`).
   */
  onPrinted?: (throughId: number) => void;
}

/**
 * Finished turns, printed once above the live region (Ink `<Static>`: never re-rendered). Ink
 * writes a commit's new <Static> children before the commit's layout effects run, so what is
 * in `items` then has been printed and is handed back through `onPrinted`: the state keeps only
 * items still to print, however long the chat runs.
 */
export function Transcript({ items, epoch, color, width, onPrinted }: TranscriptProps): ReactNode {
  useLayoutEffect(() => {
    const last = items.at(-1);
    if (last !== undefined) onPrinted?.(last.id);
  }, [items, onPrinted]);
  return (
    <Static key={epoch} items={items as FinishedItem[]}>
      {(item) => <Item key={item.id} item={item} color={color} width={width} />}
    </Static>
  );
}
