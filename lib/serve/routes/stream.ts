import type { Context } from 'hono';
import { redactSecrets } from '../../events/redact.js';
import { toInvokeResponse } from '../invoke-response.js';
import { readJsonBody } from '../json-body.js';
import { parseRunRequest } from '../run-request.js';
import type { ServeRuntime } from '../runtime.js';
import { webEventStream, type SseStream } from '../sse-stream.js';
import { clientClosed } from './run-outcome.js';
import { runIntoStream } from './stream-run.js';

/**
 * The core of `POST /stream`, shared by the Hono route and the Node fast path: admits the request,
 * reads (until the slot's signal aborts) and validates its body (what it throws before the stream opens is answered as a JSON
 * error), then `open`s the event stream (given what to call when the client goes away) and runs
 * the agent into it. Resolves with what `open` returned, once the run has started.
 */
export async function startStream<T>(runtime: ServeRuntime, readBody: (signal: AbortSignal) => Promise<unknown>, open: (onClientGone: () => void) => { sse: SseStream; response: T }): Promise<T> {
  const slot = runtime.tracker.acquire();
  let started = false;
  try {
    const request = parseRunRequest(await slot.readBody(readBody));
    const { sse, response } = open(() => slot.abort(clientClosed()));
    let runId: string | undefined;
    runIntoStream(runtime, slot, request, sse, {
      label: 'stream run failed',
      onEvent: (event) => {
        if (event.type === 'run-end' || event.type === 'error') return;
        if (event.type === 'run-start') runId = event.runId;
        sse.send(event.type, event.type === 'text-delta' || event.type === 'reasoning-delta' ? event : redactSecrets(event));
      },
      onResult: (result) => sse.send('run-end', toInvokeResponse(result, request)),
      onFailure: (failure) => sse.send('error', { ...failure.toJSON(), status: failure.status, ...(runId === undefined ? {} : { run_id: runId }) }),
    });
    started = true;
    return response;
  } finally {
    if (!started) slot.release();
  }
}

/**
 * `POST /stream`: the run's AgentEvents as named server-sent events, each written as it happens.
 * `run-end` carries the /invoke object; a failure is one `error` event
 * (`{ error: { type, message }, status, run_id }`), then the stream ends. The library's own
 * `error` and `run-end` events are replaced by these two. A client that disconnects aborts the run.
 * Errors found before the run starts (bad body, limits) are plain JSON errors with their status.
 */
export function streamRoute(runtime: ServeRuntime): (c: Context) => Promise<Response> {
  return (c) =>
    startStream(
      runtime,
      (signal) => readJsonBody(c, runtime.bodyLimitBytes, signal),
      (onClientGone) => {
        const stream = webEventStream(onClientGone, { keepAliveMs: runtime.keepAliveMs });
        c.req.raw.signal.addEventListener('abort', onClientGone, { once: true });
        return stream;
      },
    );
}
