import type { Context } from 'hono';
import { toInvokeResponse } from '../invoke-response.js';
import { readJsonBody } from '../json-body.js';
import { runAgent } from '../run-agent.js';
import { parseRunRequest } from '../run-request.js';
import type { ServeRuntime } from '../runtime.js';
import { throwIfAborted } from './run-outcome.js';

/** `POST /invoke`: one run, answered with the /invoke object (or a JSON error with its real status). */
export function invokeRoute(runtime: ServeRuntime): (c: Context) => Promise<Response> {
  return async (c) => {
    const slot = runtime.tracker.acquire();
    try {
      const request = parseRunRequest(await slot.race(readJsonBody(c, runtime.bodyLimitBytes)));
      const result = await slot.race(runAgent(runtime.runner, request, slot.signal));
      throwIfAborted(slot.signal, result);
      return c.json(toInvokeResponse(result, request));
    } finally {
      slot.release();
    }
  };
}
