import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { paint } from './chat-theme.js';
import { parseInline, parseMarkdown, type MarkdownBlock } from './markdown-blocks.js';

function Inline({ text, color }: { text: string; color: boolean }): ReactNode {
  return parseInline(text).map((span, i) => {
    if (span.kind === 'bold') return <Text key={i} {...paint(color, { bold: true })}>{span.text}</Text>;
    if (span.kind === 'code') return <Text key={i} {...paint(color, { color: 'cyan' })}>{color ? span.text : `\`${span.text}\``}</Text>;
    return <Text key={i}>{span.text}</Text>;
  });
}

function Block({ block, color }: { block: MarkdownBlock; color: boolean }): ReactNode {
  switch (block.kind) {
    case 'code':
      return (
        <Box flexDirection="column" paddingLeft={2}>
          {block.lang !== '' ? <Text {...paint(color, { dimColor: true })}>{block.lang}</Text> : null}
          {block.lines.map((line, i) => (
            <Text key={i} {...paint(color, { color: 'cyan' })}>
              {color ? '' : '│ '}
              {line === '' ? ' ' : line}
            </Text>
          ))}
        </Box>
      );
    case 'heading':
      return (
        <Text {...paint(color, { bold: true, underline: block.level === 1 })}>
          {color ? '' : `${'#'.repeat(block.level)} `}
          <Inline text={block.text} color={color} />
        </Text>
      );
    case 'item':
      return (
        <Box paddingLeft={block.indent * 2}>
          <Text>{`${block.marker} `}</Text>
          <Text>
            <Inline text={block.text} color={color} />
          </Text>
        </Box>
      );
    case 'quote':
      return (
        <Text {...paint(color, { dimColor: true })}>
          {'▎ '}
          <Inline text={block.text} color={color} />
        </Text>
      );
    case 'line':
      return (
        <Text>
          <Inline text={block.text} color={color} />
        </Text>
      );
    case 'blank':
      return <Text> </Text>;
  }
}

/** Answer text rendered readably: fenced code blocks, headings, lists, **bold** and `code`. */
export function Markdown({ text, color }: { text: string; color: boolean }): ReactNode {
  return (
    <Box flexDirection="column">
      {parseMarkdown(text).map((block, i) => (
        <Block key={i} block={block} color={color} />
      ))}
    </Box>
  );
}
