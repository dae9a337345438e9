import type { AgentResult } from '../../agent/result.js';
import type { AgentEvent } from '../../events/types.js';
import { toHttpError } from '../error-mapping.js';
import type { HttpError } from '../http-error.js';
import { runAgent } from '../run-agent.js';
import type { RunRequest } from '../run-request.js';
import type { RunSlot } from '../run-slot.js';
import type { ServeRuntime } from '../runtime.js';
import type { SseStream } from '../sse-stream.js';
import { throwIfAborted } from './run-outcome.js';

/** What a streamed route writes: each event of the run, its last frames, or its error frame. */
export interface StreamRunHandlers {
  /** Logged with the details of a server-side failure. */
  label: string;
  onEvent: (event: AgentEvent) => void;
  /** The run finished: write its last frames. */
  onResult: (result: AgentResult) => void;
  /** The run failed or was aborted (timeout, shutdown): write its error frame. */
  onFailure: (failure: HttpError) => void;
}

/**
 * Runs a streamed request (`/stream`, streamed chat completions) into `sse`: every event goes to
 * `onEvent`; then `onResult` or `onFailure` (a server-side failure, status ≥ 500 other than 503
 * and 504, is logged as `label`), then the stream closes and the slot is released.
 */
export function runIntoStream(runtime: ServeRuntime, slot: RunSlot, request: RunRequest, sse: SseStream, handlers: StreamRunHandlers): void {
  slot
    .race(runAgent(runtime.runner, request, slot.signal, handlers.onEvent))
    .then((result) => {
      throwIfAborted(slot.signal, result);
      handlers.onResult(result);
    })
    .catch((error: unknown) => {
      const failure = toHttpError(error);
      if (failure.status >= 500 && failure.status !== 503 && failure.status !== 504) runtime.logError(handlers.label, error);
      handlers.onFailure(failure);
    })
    .finally(() => {
      sse.close();
      slot.release();
    });
}
