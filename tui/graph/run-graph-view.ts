import type { BoxPlace } from './diagram-paint.js';
import type { GraphRunDriver, GraphRunEnd } from './use-graph-run.js';

/** Options of {@link runGraphView}. */
export interface RunGraphViewOptions {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  color: boolean;
  /** The drawing's rows (compact spacing) and where each node's box is. */
  diagram: readonly string[];
  places: ReadonlyMap<string, BoxPlace>;
}

/** How the view ended: the run's end, or `left` (Esc at a question: the run waits). */
export type GraphViewEnd = GraphRunEnd | { kind: 'left' };

/**
 * Draws a graph run live on the terminal until it ends (or the user leaves it waiting on a
 * question). Ink and React load here, lazily. Ctrl+C in the view, or the `signal` the driver's
 * runs were started with, cancels the run.
 */
export async function runGraphView(driver: Omit<GraphRunDriver, 'onEnd'>, options: RunGraphViewOptions): Promise<GraphViewEnd> {
  const [{ render }, { createElement }, { GraphRunApp }] = await Promise.all([import('ink'), import('react'), import('./GraphRunApp.js')]);
  let end: GraphViewEnd | undefined;
  let leave: () => void = () => undefined;
  const left = new Promise<void>((resolve) => (leave = resolve));
  const element = createElement(GraphRunApp, {
    driver: { ...driver, onEnd: (e: GraphRunEnd) => void (end = e) },
    diagram: options.diagram,
    places: options.places,
    color: options.color,
    onLeave: () => {
      end = { kind: 'left' };
      leave();
    },
  });
  const instance = render(element, { stdin: options.stdin, stdout: options.stdout, stderr: options.stderr, exitOnCtrlC: false, maxFps: 30 });
  try {
    await Promise.race([instance.waitUntilExit(), left]);
  } finally {
    instance.unmount();
  }
  return end ?? { kind: 'left' };
}
