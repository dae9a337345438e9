/**
 * `agentlib/serve`: the HTTP layer of `agentlib serve`, as a library. `createServeApp` builds a
 * Hono app (testable with `app.request()`, servable with `listen`, `http.createServer(served.requestListener())`
 * or any fetch-based server).
 */
export { createServeApp, SERVE_DEFAULTS, type RequestListenerOptions, type ServeApp, type ServeAppOptions } from './app.js';
export { createGraphServeApp, type GraphServeApp, type GraphServeAppOptions } from './graph/graph-app.js';
export type { GraphInvokeResponse, InterruptJSON } from './graph/graph-response.js';
export { listen, type ListenOptions, type RunningServer } from './server.js';
export { HttpError, type HttpErrorType } from './http-error.js';
export { toHttpError } from './error-mapping.js';
export { InMemorySessionStore, SESSION_STORE_DEFAULTS, type InMemorySessionStoreOptions, type SessionEviction, type SessionStore } from './session-store.js';
export type { InvokeResponse } from './invoke-response.js';
export type { RunRequest } from './run-request.js';
export type { AgentInfo, ToolInfo } from './agent-info.js';
export type { DrainResult } from './run-tracker.js';
export { approvalFromGlobs } from './approval-policy.js';
export { isLoopbackHost } from './bearer-auth.js';
