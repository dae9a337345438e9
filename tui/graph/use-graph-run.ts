import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { GraphStream } from '../../lib/graph/graph-stream.js';
import type { DiagramNode } from '../../lib/graph/render/diagram-nodes.js';
import type { GraphResult } from '../../lib/graph/types.js';
import { graphViewReducer, initialGraphView, type GraphViewState } from './graph-view-state.js';

/** How a run shown in the view ended. */
export type GraphRunEnd = { kind: 'result'; result: GraphResult } | { kind: 'error'; error: unknown };

/** What the hook needs: how to start the run and how to go on after an answer. */
export interface GraphRunDriver {
  graph: string;
  nodes: readonly DiagramNode[];
  start: () => GraphStream;
  resume: (interruptId: string, answer: unknown) => GraphStream;
  /** The nodes that ran before this run (a resumed or forked run's checkpoint history): drawn done. */
  history?: readonly string[];
  /** Called once the run is over (completed, failed, cancelled; not while it waits on a question). */
  onEnd: (end: GraphRunEnd) => void;
}

/** An answer as `agentlib graph resume --response` takes it: JSON when it parses, else the text. */
export function parseAnswer(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Runs the graph and folds its events into the view state; `answer` resumes the run waiting on
 * an interrupt (in this process: a generator node gets the answer at its yield), `cancel` stops
 * it, `lastResult` is the latest result (the one waiting when the user leaves).
 */
export function useGraphRun(driver: GraphRunDriver): { state: GraphViewState; content: string | undefined; answer: (interruptId: string, text: string) => void; cancel: () => void; lastResult: () => GraphResult | undefined } {
  const [state, dispatch] = useReducer(graphViewReducer, undefined, () => initialGraphView(driver.graph, driver.nodes, driver.history));
  const [content, setContent] = useState<string | undefined>(undefined);
  const current = useRef<GraphStream | undefined>(undefined);
  const latest = useRef<GraphResult | undefined>(undefined);
  const consume = useCallback(
    async (stream: GraphStream): Promise<void> => {
      current.current = stream;
      try {
        for await (const event of stream) dispatch({ type: 'events', events: [event] });
        const result = await stream.result;
        latest.current = result;
        const status = result.interrupted ? 'interrupted' : result.status;
        dispatch({ type: 'finished', status });
        if (result.interrupted) return;
        if (result.status === 'completed') setContent(result.content);
        driver.onEnd({ kind: 'result', result });
      } catch (error) {
        dispatch({ type: 'finished', status: 'failed', message: error instanceof Error ? error.message : String(error) });
        driver.onEnd({ kind: 'error', error });
      }
    },
    [driver],
  );
  useEffect(() => {
    void consume(driver.start());
    return () => current.current?.abort();
  }, []);
  const answer = useCallback(
    (interruptId: string, text: string): void => {
      dispatch({ type: 'answered', interruptId });
      void consume(driver.resume(interruptId, parseAnswer(text)));
    },
    [consume, driver],
  );
  const cancel = useCallback(() => current.current?.abort(), []);
  return { state, content, answer, cancel, lastResult: () => latest.current };
}
