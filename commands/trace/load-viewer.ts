import type { AgentTrace } from '../../lib/trace/agent-trace.js';
import { importTui } from '../import-tui.js';

/** The options of the Ink trace viewer (`tui/trace-viewer/run-viewer.ts`). */
export interface TraceViewerOptions {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  color: boolean;
}

/** What `tui/trace-viewer/run-viewer.js` exports. */
export interface TraceViewerModule {
  runTraceViewer(trace: AgentTrace, options: TraceViewerOptions): Promise<number>;
}

/** Loads the viewer module, or returns undefined when it is not there (not built or installed). */
export type ViewerLoader = () => Promise<TraceViewerModule | undefined>;

// A computed URL: the viewer is optional at compile time and loads Ink only when it runs.
const VIEWER_MODULE = new URL('../../tui/trace-viewer/run-viewer.js', import.meta.url);

/** Imports the Ink viewer (its bundle when built); undefined when the module (or one it needs) cannot be found. */
export const loadTraceViewer: ViewerLoader = async () => {
  try {
    const loaded = (await importTui(VIEWER_MODULE)) as Partial<TraceViewerModule>;
    return typeof loaded.runTraceViewer === 'function' ? (loaded as TraceViewerModule) : undefined;
  } catch (error) {
    if (isModuleNotFound(error)) return undefined;
    throw error;
  }
};

function isModuleNotFound(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}
