import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** The terminal's columns and rows, re-read when it is resized (defaults when the stream does not say). */
export function useTerminalSize(fallback: { columns: number; rows: number } = { columns: 100, rows: 24 }): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = (): { columns: number; rows: number } => ({ columns: stdout.columns || fallback.columns, rows: stdout.rows || fallback.rows });
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
