import type { Context } from 'hono';
import { redactSecrets } from '../../events/redact.js';
import type { AgentEvent } from '../../events/types.js';
import { toHttpError } from '../error-mapping.js';
import { toInvokeResponse } from '../invoke-response.js';
import { readJsonBody } from '../json-body.js';
import { runAgent } from '../run-agent.js';
import { parseRunRequest } from '../run-request.js';
import type { ServeRuntime } from '../runtime.js';
import { SseStream } from '../sse-stream.js';
import { clientClosed, throwIfAborted } from './run-outcome.js';

/**
 * `POST /stream`: the run's AgentEvents as named server-sent events, each written as it happens.
 * `run-end` carries the /invoke object; a failure is one `error` event
 * (`{ error: { type, message }, status, run_id }`), then the stream ends. The library's own
 * `error` and `run-end` events are replaced by these two. A client that disconnects aborts the run.
 * Errors found before the run starts (bad body, limits) are plain JSON errors with their status.
 */
export function streamRoute(runtime: ServeRuntime): (c: Context) => Promise<Response> {
  return async (c) => {
    const slot = runtime.tracker.acquire();
    let started = false;
    try {
      const request = parseRunRequest(await slot.race(readJsonBody(c, runtime.bodyLimitBytes)));
      const sse = new SseStream(() => slot.abort(clientClosed()), { keepAliveMs: runtime.keepAliveMs });
      c.req.raw.signal.addEventListener('abort', () => slot.abort(clientClosed()), { once: true });
      let runId: string | undefined;
      const forward = (event: AgentEvent): void => {
        if (event.type === 'run-end' || event.type === 'error') return;
        if (event.type === 'run-start') runId = event.runId;
        sse.send(event.type, event.type === 'text-delta' || event.type === 'reasoning-delta' ? event : redactSecrets(event));
      };
      const run = runAgent(runtime.runner, request, slot.signal, forward);
      started = true;
      slot
        .race(run)
        .then(
          (result) => {
            throwIfAborted(slot.signal, result);
            sse.send('run-end', toInvokeResponse(result, request));
          },
        )
        .catch((error: unknown) => {
          const failure = toHttpError(error);
          if (failure.status >= 500 && failure.status !== 503 && failure.status !== 504) runtime.logError('stream run failed', error);
          sse.send('error', { ...failure.toJSON(), status: failure.status, ...(runId === undefined ? {} : { run_id: runId }) });
        })
        .finally(() => {
          sse.close();
          slot.release();
        });
      return sse.response;
    } finally {
      if (!started) slot.release();
    }
  };
}
