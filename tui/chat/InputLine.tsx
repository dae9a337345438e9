import { Text, useInput } from 'ink';
import { useRef, useState, type ReactNode } from 'react';
import { cutToWidth } from '../../lib/core/display-width.js';
import { paint } from './chat-theme.js';
import { useInputHistory } from './hooks/use-input-history.js';
import { tailToWidth } from '../../lib/core/display-width.js';

/** Props of the input line. */
export interface InputLineProps {
  /** Whether keys go to the input (not while an approval is asked). */
  active: boolean;
  color: boolean;
  /**
   * Called with the line on Enter. Returning `false` refuses it (e.g. a prompt while a turn
   * runs): the text stays in the input to be sent later, and is not added to the history.
   */
  onSubmit: (line: string) => boolean | void;
  placeholder?: string;
  /** Terminal columns: the line is one row, showing the end of a longer text. */
  width?: number;
}

/** The prompt line (one row): type, Backspace, Enter submits, Up/Down walk the input history. */
export function InputLine({ active, color, onSubmit, placeholder = 'Ask something, or /help', width = 100 }: InputLineProps): ReactNode {
  const [text, setTextState] = useState('');
  // Keys can arrive faster than renders: the handler reads and writes the ref, never a stale closure.
  const current = useRef('');
  const setText = (next: string | ((previous: string) => string)): void => {
    current.current = typeof next === 'function' ? next(current.current) : next;
    setTextState(current.current);
  };
  const history = useInputHistory();
  /** Submits `value`; false when it is empty or was refused (the text then stays). */
  const submit = (value: string): boolean => {
    const line = value.trim();
    if (line === '') return false;
    if (onSubmit(line) === false) {
      setText(value);
      return false;
    }
    history.add(line);
    setText('');
    return true;
  };
  useInput(
    (input, key) => {
      if (key.return) {
        submit(current.current);
      } else if (input.length > 1 && /[\r\n]/.test(input) && !key.ctrl && !key.meta) {
        // A pasted or fast-typed chunk with Enter inside: submit at the (first) line break.
        const at = input.search(/[\r\n]/);
        const rest = input.slice(at + 1).replace(/^\n/, '');
        if (submit(current.current + input.slice(0, at))) setText(rest.replace(/[\r\n]+/g, ' '));
        else setText((t) => t + input.slice(at).replace(/[\r\n]+/g, ' ').replace(/\s+$/, ''));
      } else if (key.upArrow) {
        const previous = history.previous(current.current);
        if (previous !== undefined) setText(previous);
      } else if (key.downArrow) {
        const next = history.next();
        if (next !== undefined) setText(next);
      } else if (key.backspace || key.delete) {
        setText((t) => t.slice(0, -1));
      } else if (key.ctrl && input === 'u') {
        setText('');
      } else if (!key.ctrl && !key.meta && !key.escape && !key.tab && input !== '') {
        setText((t) => t + input.replace(/[\r\n]+/g, ' '));
      }
    },
    { isActive: active },
  );
  // One row: the prompt mark (2 columns), the text's end, the cursor (1 column).
  const room = Math.max(1, width - 3);
  return (
    <Text wrap="truncate-end">
      <Text {...paint(color, { color: 'blue', bold: true })}>{'› '}</Text>
      {text === '' && active ? <Text {...paint(color, { dimColor: true })}>{cutToWidth(placeholder, room)}</Text> : <Text>{tailToWidth(text, room)}</Text>}
      {active ? <Text {...paint(color, { inverse: true })}>{color ? ' ' : '█'}</Text> : null}
    </Text>
  );
}
