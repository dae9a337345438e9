import type { Context } from 'hono';
import { toInvokeResponse, type InvokeResponse } from '../invoke-response.js';
import { readJsonBody } from '../json-body.js';
import { runAgent } from '../run-agent.js';
import { parseRunRequest } from '../run-request.js';
import type { ServeRuntime } from '../runtime.js';
import { throwIfAborted } from './run-outcome.js';

/**
 * The core of `POST /invoke`, shared by the Hono route and the Node fast path: admits the request
 * (429, 503), reads its body with `readBody` (given the slot's signal: it must settle when that
 * aborts) and validates it, runs the agent under the request's
 * deadline, and returns the /invoke object. What it throws is answered through `toHttpError`.
 */
export async function invoke(runtime: ServeRuntime, readBody: (signal: AbortSignal) => Promise<unknown>): Promise<InvokeResponse> {
  const slot = runtime.tracker.acquire();
  try {
    const request = parseRunRequest(await slot.readBody(readBody));
    const result = await slot.race(runAgent(runtime.runner, request, slot.runSignal()));
    throwIfAborted(slot.signal, result);
    return toInvokeResponse(result, request);
  } finally {
    slot.release();
  }
}

/** `POST /invoke`: one run, answered with the /invoke object (or a JSON error with its real status). */
export function invokeRoute(runtime: ServeRuntime): (c: Context) => Promise<Response> {
  return async (c) => c.json(await invoke(runtime, (signal) => readJsonBody(c, runtime.bodyLimitBytes, signal)));
}
