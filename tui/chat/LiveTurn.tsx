import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { tailLines } from './chat-format.js';
import type { LiveTurn as LiveTurnData, ToolCard as ToolCardData } from './chat-state.js';
import { paint } from './chat-theme.js';
import { Markdown } from './Markdown.js';
import { ToolCard } from './ToolCard.js';

/**
 * The unfinished tail of the running turn: the text being streamed (its last `maxLines` lines)
 * and the tool cards that are still running or waiting for approval.
 */
export function LiveTurn({ turn, color, width, maxLines }: { turn: LiveTurnData; color: boolean; width: number; maxLines: number }): ReactNode {
  let budget = Math.max(3, maxLines);
  const parts: ReactNode[] = [];
  // Newest last; fill the budget from the end so the tail stays visible.
  for (let i = turn.segments.length - 1; i >= 0 && budget > 0; i--) {
    const segment = turn.segments[i];
    if (segment === undefined) continue;
    if (segment.kind === 'tool') {
      const card = turn.tools[segment.callId] as ToolCardData;
      parts.unshift(<ToolCard key={`t${segment.callId}`} card={card} color={color} width={width} />);
      budget -= 2;
      continue;
    }
    const { text, hidden } = tailLines(segment.text.replace(/^\n+/, ''), budget);
    parts.unshift(
      <Box key={`s${i}`} flexDirection="column">
        {hidden > 0 ? <Text {...paint(color, { dimColor: true })}>{`… ${hidden} line${hidden === 1 ? '' : 's'} above`}</Text> : null}
        <Markdown text={text} color={color} />
      </Box>,
    );
    budget -= text.split('\n').length + (hidden > 0 ? 1 : 0);
  }
  if (parts.length === 0) {
    return <Text {...paint(color, { dimColor: true })}>{'⊷ thinking…'}</Text>;
  }
  return <Box flexDirection="column">{parts}</Box>;
}
