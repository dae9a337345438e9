import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { accessLogLine } from './access-log.js';
import type { HttpError } from './http-error.js';
import type { RequestGate } from './request-gate.js';

/** The JSON body and status of an HttpError (with its headers, e.g. `Allow`, `Retry-After`). */
export function errorResponse(c: Context, error: HttpError): Response {
  return c.json(error.toJSON(), error.status as ContentfulStatusCode, { ...error.headers });
}

/** One access-log line per request (see accessLogLine), written after the response. */
export function accessLogger(write: (line: string) => void): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    write(accessLogLine(c.req.method, c.req.path, c.res.status, started));
  };
}

/** The request gate as the first step of every Hono request (fewer steps on the hot path). */
export function guard(gate: RequestGate): MiddlewareHandler {
  return async (c, next) => {
    const rejected = gate(c.req.method, c.req.path, c.req.header('host') ?? new URL(c.req.url).host, c.req.header('authorization'));
    if (rejected !== undefined) return errorResponse(c, rejected);
    await next();
    return undefined;
  };
}
