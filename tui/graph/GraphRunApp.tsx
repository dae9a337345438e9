import { useApp, useInput } from 'ink';
import { useEffect, useState, type ReactNode } from 'react';
import type { BoxPlace } from './diagram-paint.js';
import { GraphRunView } from './GraphRunView.js';
import { SPINNER_FRAMES } from './graph-theme.js';
import { useGraphRun, type GraphRunDriver } from './use-graph-run.js';
import { useTerminalSize } from '../hooks/use-terminal-size.js';

/** Props of the live graph view. */
export interface GraphRunAppProps {
  driver: GraphRunDriver;
  diagram: readonly string[];
  places: ReadonlyMap<string, BoxPlace>;
  color: boolean;
  /** Esc at a question: the run stays waiting (the command prints how to resume it). */
  onLeave: () => void;
  /** Ms between spinner frames; 0 keeps the first frame (tests). */
  spinnerMs?: number;
}

/** `agentlib graph run` on a terminal: runs the graph and draws it live (see GraphRunView). Ctrl+C cancels the run. */
export function GraphRunApp({ driver, diagram, places, color, onLeave, spinnerMs = 120 }: GraphRunAppProps): ReactNode {
  const { state, content, answer, cancel } = useGraphRun(driver);
  const { columns, rows } = useTerminalSize();
  const { exit } = useApp();
  const [spinner, setSpinner] = useState(0);
  const busy = state.running.length > 0;
  useEffect(() => {
    if (!busy || spinnerMs <= 0) return undefined;
    const timer = setInterval(() => setSpinner((n) => n + 1), spinnerMs);
    return () => clearInterval(timer);
  }, [busy, spinnerMs]);
  useInput((input, key) => {
    if (key.ctrl && input === 'c') cancel();
  });
  useEffect(() => {
    if (state.outcome !== undefined && state.outcome.status !== 'interrupted') exit();
  }, [state.outcome]);
  return (
    <GraphRunView
      state={state}
      nodes={driver.nodes}
      diagram={diagram}
      places={places}
      color={color}
      columns={columns}
      rows={rows}
      spinner={SPINNER_FRAMES.length > 0 ? spinner : 0}
      content={content}
      onAnswer={answer}
      onLeave={onLeave}
    />
  );
}
