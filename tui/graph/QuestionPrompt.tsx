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
  const submit = (answer: string): void => {
    onAnswer(answer);
    setText('');
  };
  useInput((input, key) => {
    if (key.return) return submit(text);
    if (key.escape && input === '') return onLeave();
    if (key.backspace || key.delete) return setText((t) => [...t].slice(0, -1).join(''));
    if (key.ctrl || key.meta) return undefined;
    // A chunk of several keys at once (typed fast, pasted, or sent by tmux): key by key.
    let next = text;
    for (const ch of input) {
      if (ch === '\r' || ch === '\n') return submit(next);
      if (ch === '\u007f' || ch === '\b') next = [...next].slice(0, -1).join('');
      else if (!/[\u0000-\u001f\u0080-\u009f]/.test(ch)) next += ch;
    }
    setText(next);
    return undefined;
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
