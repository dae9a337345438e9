import { Text, useInput } from 'ink';
import { useRef, useState, type ReactNode } from 'react';
import { paint } from './chat-theme.js';
import { useInputHistory } from './hooks/use-input-history.js';

/** Props of the input line. */
export interface InputLineProps {
  /** Whether keys go to the input (not while a turn runs or an approval is asked). */
  active: boolean;
  color: boolean;
  onSubmit: (line: string) => void;
  placeholder?: string;
}

/** The prompt line: type, Backspace, Enter submits, Up/Down walk the input history. */
export function InputLine({ active, color, onSubmit, placeholder = 'Ask something, or /help' }: InputLineProps): ReactNode {
  const [text, setTextState] = useState('');
  // Keys can arrive faster than renders: the handler reads and writes the ref, never a stale closure.
  const current = useRef('');
  const setText = (next: string | ((previous: string) => string)): void => {
    current.current = typeof next === 'function' ? next(current.current) : next;
    setTextState(current.current);
  };
  const history = useInputHistory();
  const submit = (value: string): boolean => {
    const line = value.trim();
    if (line === '') return false;
    history.add(line);
    setText('');
    onSubmit(line);
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
        else setText((t) => t + input.replace(/[\r\n]+/g, ' '));
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
  return (
    <Text>
      <Text {...paint(color, { color: 'blue', bold: true })}>{'› '}</Text>
      {text === '' && active ? <Text {...paint(color, { dimColor: true })}>{placeholder}</Text> : <Text>{text}</Text>}
      {active ? <Text {...paint(color, { inverse: true })}>{color ? ' ' : '█'}</Text> : null}
    </Text>
  );
}
