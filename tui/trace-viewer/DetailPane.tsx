import { Box, Text } from 'ink';
import { cutToWidth } from '../../lib/core/display-width.js';
import type { DetailLine } from './detail-lines.js';

interface Props {
  lines: readonly DetailLine[];
  /** First line shown. */
  top: number;
  height: number;
  width: number;
  focused: boolean;
}

const TONE_COLOR: Partial<Record<NonNullable<DetailLine['tone']>, string>> = { heading: 'yellow', error: 'red', title: 'cyan' };

function toneColor(tone: DetailLine['tone']): { color?: string } {
  const color = tone === undefined ? undefined : TONE_COLOR[tone];
  return color === undefined ? {} : { color };
}

/** The selected step's details (messages, tool args and results, errors, reasoning), scrolled to `top`. */
export function DetailPane({ lines, top, height, width, focused }: Props) {
  const shown = lines.slice(top, top + height);
  const more = lines.length > height ? ` ${top + 1}-${top + shown.length}/${lines.length}` : '';
  const title = `${focused ? '▶ ' : ''}details${more}${focused ? '  (↑↓ scroll, Tab back)' : '  (Tab to scroll)'} `;
  return (
    <Box flexDirection="column" height={height + 1}>
      <Text {...(focused ? { color: 'cyan' } : {})} dimColor={!focused} wrap="truncate">
        {cutToWidth(`─ ${title}${'─'.repeat(width)}`, width, '')}
      </Text>
      {shown.map((line, index) => (
        <Text key={top + index} wrap="truncate" {...toneColor(line.tone)} dimColor={line.tone === 'dim'} bold={line.tone === 'title'}>
          {line.text === '' ? ' ' : line.text}
        </Text>
      ))}
    </Box>
  );
}
