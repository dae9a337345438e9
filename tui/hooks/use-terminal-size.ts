import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** A terminal size in columns and rows. */
export interface TerminalSize {
  columns: number;
  rows: number;
}

/**
 * The terminal's columns and rows, re-read when it is resized; `fallback` where the stream does
 * not say (80 × 24 unless given).
 */
export function useTerminalSize(fallback: TerminalSize = { columns: 80, rows: 24 }): TerminalSize {
  const { stdout } = useStdout();
  const read = (): TerminalSize => ({ columns: stdout.columns || fallback.columns, rows: stdout.rows || fallback.rows });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = (): void => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
