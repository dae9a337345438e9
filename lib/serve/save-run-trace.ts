import { failedRunResult } from '../agent/execute-run.js';
import type { AgentResult } from '../agent/result.js';
import type { TraceStore } from '../trace/stores/types.js';

/** Where the server keeps each request's run trace (`ServeAppOptions.traceStore`). */
export interface RunTraces {
  store: TraceStore;
  /** A trace that could not be saved (the response is not affected). */
  onError: (error: unknown, runId: string) => void;
}

/**
 * Saves the trace of a request's run when it ends — the result's, or a run that threw its failed
 * result's (`failedRunResult`) — then settles as `run` did. The save is awaited, so the trace is in
 * the store when the response goes out; a store failure goes to `onError` and never fails the request.
 */
export function savingTrace(traces: RunTraces | undefined, run: Promise<AgentResult>): Promise<AgentResult> {
  return traces === undefined ? run : saved(traces, run);
}

async function saved(traces: RunTraces, run: Promise<AgentResult>): Promise<AgentResult> {
  let result: AgentResult;
  try {
    result = await run;
  } catch (error) {
    const failed = failedRunResult(error);
    if (failed !== undefined) await save(traces, failed);
    throw error;
  }
  await save(traces, result);
  return result;
}

async function save(traces: RunTraces, result: AgentResult): Promise<void> {
  try {
    await traces.store.save(result.trace.toJSON());
  } catch (error) {
    traces.onError(error, result.runId);
  }
}
