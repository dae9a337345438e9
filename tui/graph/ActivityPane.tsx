import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { cut } from '../chat/chat-format.js';
import { paint } from '../chat/chat-theme.js';
import { ToolCard } from '../chat/ToolCard.js';
import { activityText, type NodeActivity } from './graph-view-state.js';

/** Lines of streamed text shown per node. */
export const ACTIVITY_LINES = 4;

/**
 * What the running nodes' agents are doing: per node a title, the last lines of its streamed text
 * and its tool cards (side by side in time: one block per parallel branch).
 */
export function ActivityPane({ blocks, color, width }: { blocks: readonly { name: string; activity: NodeActivity }[]; color: boolean; width: number }): ReactNode {
  return (
    <Box flexDirection="column">
      {blocks.map(({ name, activity }) => {
        const lines = activityText(activity).trimEnd().split('\n').filter((line) => line.trim() !== '').slice(-ACTIVITY_LINES);
        return (
          <Box key={name} flexDirection="column">
            <Text {...paint(color, { bold: true })} wrap="truncate-end">{`── ${name} ${'─'.repeat(Math.max(0, Math.min(40, width - name.length - 4)))}`}</Text>
            {lines.map((line, i) => (
              <Text key={i} wrap="truncate-end">
                {cut(line, width)}
              </Text>
            ))}
            {activity.tools.map((card) => (
              <ToolCard key={card.callId} card={card} color={color} width={width} />
            ))}
          </Box>
        );
      })}
    </Box>
  );
}
