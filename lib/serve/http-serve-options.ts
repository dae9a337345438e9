import type { TraceStore } from '../trace/stores/types.js';

/** The HTTP options a served agent (createServeApp) and a served graph (createGraphServeApp) share. */
export interface HttpServeOptions {
  /** Require `Authorization: Bearer <token>` on every route but the playground page. */
  authToken?: string;
  /** Allow this origin (CORS). Default: no CORS headers. */
  cors?: string;
  /** Concurrent requests (429 past it). Default 32. */
  maxConcurrency?: number;
  /** Largest request body in bytes (413 past it). Default 1 MiB. */
  bodyLimitBytes?: number;
  /** Deadline of a request, body to answer (504 past it; 0: none). Default 120 s. */
  timeoutMs?: number;
  /**
   * Deadline of reading a request's body, from admission (408 past it, and the connection is
   * closed; 0: none, the request timeout still applies). Default 30 s.
   */
  bodyTimeoutMs?: number;
  /** Serve the playground page at `/playground` (`GET /` redirects to it). Default true. */
  playground?: boolean;
  /**
   * Host names (from the Host header) the server answers; others get 403, which stops DNS
   * rebinding. Default: loopback names when no authToken is set, any host when one is.
   */
  allowedHosts?: readonly string[] | 'any';
  /** Reported by /health. Default: agentlib's version. */
  version?: string;
  /** Access log: one line per request (`<time> <method> <path> <status> <ms>ms`). Default: none. */
  accessLog?: (line: string) => void;
  /** Server-side failures with details. Default: `console.error`. */
  logError?: (message: string, error: unknown) => void;
  /** SSE keep-alive comment interval in ms (0: none). Default 15 s. */
  keepAliveMs?: number;
  /**
   * Where each request's run trace is saved when the run ends (a failed run's too), before the
   * response goes out: a TraceStore of `agentlib/trace/stores` (`agentlib serve`: SQLiteTraceStore
   * on `.agentlib/agentlib.db` by default). A save that fails goes to `logError`; the response is
   * not affected. The caller closes the store. Default: traces are not kept.
   */
  traceStore?: TraceStore;
}
