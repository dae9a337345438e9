import { Box, Text, useInput } from 'ink';
import { useState, type ReactNode } from 'react';
import { paint } from '../chat/chat-theme.js';
import type { PendingQuestion } from './graph-view-state.js';

/**
 * An interrupt's question answered in place: the asking node, the prompt, and a line to type the
 * answer on. Enter sends it (JSON when it parses, else the text, as `agentlib graph resume
 * --response`); Esc leaves the run waiting (the command prints how to resume it later).
 */
export function QuestionPrompt({ question, color, onAnswer, onLeave }: { question: PendingQuestion; color: boolean; onAnswer: (text: string) => void; onLeave: () => void }): ReactNode {
  const [text, setText] = useState('');
  useInput((input, key) => {
    if (key.return) {
      onAnswer(text);
      setText('');
    } else if (key.escape) onLeave();
    else if (key.backspace || key.delete) setText((t) => [...t].slice(0, -1).join(''));
    else if (!key.ctrl && !key.meta && input !== '' && !/[\u0000-\u001f\u007f]/.test(input)) setText((t) => t + input);
  });
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} {...(color ? { borderColor: 'magenta' } : {})}>
      <Text wrap="wrap">
        <Text {...paint(color, { color: 'magenta', bold: true })}>? {question.node}</Text> {question.prompt}
      </Text>
      <Text>
        <Text {...paint(color, { color: 'magenta' })}>{'› '}</Text>
        {text}
        <Text {...paint(color, { inverse: true })}> </Text>
      </Text>
      <Text {...paint(color, { dimColor: true })}>enter: answer · esc: leave it waiting (resume later)</Text>
    </Box>
  );
}
