import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { Agent } from '../agent/agent.js';
import type { AgentConfig } from '../agent/types.js';
import { agentlibVersion, describeAgent, type AgentInfo } from './agent-info.js';
import { bearerChecker, isLoopbackHost } from './bearer-auth.js';
import { toHttpError } from './error-mapping.js';
import { HttpError } from './http-error.js';
import { KeyedLock } from './keyed-lock.js';
import { chatCompletionsRoute } from './routes/chat-completions.js';
import { healthRoute, openApiRoute, schemaRoute } from './routes/info.js';
import { invokeRoute } from './routes/invoke.js';
import { playgroundRoute } from './routes/playground.js';
import { streamRoute } from './routes/stream.js';
import { RunTracker, type DrainResult } from './run-tracker.js';
import type { ServeRuntime } from './runtime.js';
import { InMemorySessionStore, type SessionStore } from './session-store.js';

/** Defaults of the server's limits. */
export const SERVE_DEFAULTS = {
  bodyLimitBytes: 1024 * 1024,
  timeoutMs: 120_000,
  maxConcurrency: 32,
  shutdownGraceMs: 10_000,
} as const;

/** Options of {@link createServeApp}. */
export interface ServeAppOptions {
  /**
   * The agent. An AgentConfig: every request runs on a fresh `new Agent(config)` (built from the
   * same provider, tools and settings; its own history, usage and approvals). Or a function that
   * returns a fresh Agent per call.
   */
  agent: AgentConfig | (() => Agent);
  /** Where `session_id` conversations live. Default: an InMemorySessionStore. */
  sessions?: SessionStore;
  /** Require `Authorization: Bearer <token>` on every route but /playground. */
  authToken?: string;
  /** Allow this origin (CORS). Default: no CORS headers. */
  cors?: string;
  /** Concurrent requests (429 past it). Default 32. */
  maxConcurrency?: number;
  /** Largest request body in bytes (413 past it). Default 1 MiB. */
  bodyLimitBytes?: number;
  /** Deadline of a request, body to answer (504 past it; 0: none). Default 120 s. */
  timeoutMs?: number;
  /** Serve `/playground`. Default true. */
  playground?: boolean;
  /**
   * Host names (from the Host header) the server answers; others get 403, which stops DNS
   * rebinding. Default: loopback names when no authToken is set, any host when one is.
   */
  allowedHosts?: readonly string[] | 'any';
  /** Passed to tools as `ctx.context` (never taken from requests). */
  toolContext?: unknown;
  /** Reported by /health. Default: agentlib's version. */
  version?: string;
  /** Access log: one line per request (`<time> <method> <path> <status> <ms>ms`). Default: none. */
  accessLog?: (line: string) => void;
  /** Server-side failures with details. Default: `console.error`. */
  logError?: (message: string, error: unknown) => void;
  /** SSE keep-alive comment interval in ms (0: none). Default 15 s. */
  keepAliveMs?: number;
}

/** A served agent: the Hono app (`app.request()` in tests, `app.fetch` for any server) and its lifecycle. */
export interface ServeApp {
  readonly app: Hono;
  readonly fetch: Hono['fetch'];
  readonly info: AgentInfo;
  /** Requests running now. */
  readonly activeRuns: number;
  /** New requests get 503; in-flight ones finish within `graceMs`, then are aborted. */
  shutdown(graceMs?: number): Promise<DrainResult>;
}

const ROUTES: readonly (readonly [string, string])[] = [
  ['/invoke', 'POST'],
  ['/stream', 'POST'],
  ['/v1/chat/completions', 'POST'],
  ['/health', 'GET'],
  ['/schema', 'GET'],
  ['/openapi.json', 'GET'],
  ['/playground', 'GET'],
];

function errorResponse(c: Context, error: HttpError): Response {
  return c.json(error.toJSON(), error.status as ContentfulStatusCode, { ...error.headers });
}

/**
 * Builds the HTTP app of a served agent: `POST /invoke`, `POST /stream` (SSE),
 * `POST /v1/chat/completions` (OpenAI-compatible), `GET /health`, `/schema`, `/openapi.json`,
 * `/playground`; JSON errors with real status codes; limits (body size, concurrency, timeout),
 * bearer auth, Host check, CORS and graceful shutdown. Every request runs on its own Agent.
 *
 * @example
 * const served = createServeApp({ agent: { provider, tools: [lookupOrder] } });
 * const res = await served.app.request('/invoke', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"prompt":"hi"}' });
 */
export function createServeApp(options: ServeAppOptions): ServeApp {
  const config = typeof options.agent === 'function' ? undefined : options.agent;
  const createAgent = typeof options.agent === 'function' ? options.agent : () => new Agent(config as AgentConfig);
  const info = describeAgent(createAgent(), config?.responseFormat, options.version ?? agentlibVersion());
  const tracker = new RunTracker({ maxConcurrency: options.maxConcurrency ?? SERVE_DEFAULTS.maxConcurrency, timeoutMs: options.timeoutMs ?? SERVE_DEFAULTS.timeoutMs });
  const logError = options.logError ?? ((message: string, error: unknown) => console.error(`agentlib serve: ${message}:`, error));
  const playground = options.playground ?? true;
  const runtime: ServeRuntime = {
    tracker,
    runner: { createAgent, sessions: options.sessions ?? new InMemorySessionStore(), locks: new KeyedLock(), ...(options.toolContext === undefined ? {} : { toolContext: options.toolContext }) },
    info,
    bodyLimitBytes: options.bodyLimitBytes ?? SERVE_DEFAULTS.bodyLimitBytes,
    keepAliveMs: options.keepAliveMs ?? 15_000,
    logError,
    playground,
    auth: options.authToken !== undefined,
  };

  const app = new Hono();
  app.onError((error, c) => {
    const failure = toHttpError(error);
    if (failure.status === 500 || failure.status === 502) logError(`${c.req.method} ${c.req.path} failed`, error);
    return errorResponse(c, failure);
  });
  app.notFound((c) => errorResponse(c, new HttpError(404, 'not_found_error', `No route ${c.req.method} ${c.req.path}`)));
  if (options.accessLog !== undefined) app.use('*', accessLogger(options.accessLog));
  const hosts = options.allowedHosts ?? (options.authToken === undefined ? 'loopback' : 'any');
  if (options.cors !== undefined) app.use('*', cors({ origin: options.cors, allowMethods: ['GET', 'POST', 'OPTIONS'], allowHeaders: ['Authorization', 'Content-Type'], maxAge: 600 }));
  app.use('*', guard({ tracker, hosts, authToken: options.authToken }));

  app.post('/invoke', invokeRoute(runtime));
  app.post('/stream', streamRoute(runtime));
  app.post('/v1/chat/completions', chatCompletionsRoute(runtime));
  app.get('/health', healthRoute(runtime));
  app.get('/schema', schemaRoute(runtime));
  app.get('/openapi.json', openApiRoute(runtime));
  if (playground) {
    app.get('/', (c) => c.redirect('/playground'));
    app.get('/playground', playgroundRoute(runtime));
  }
  for (const [path, method] of ROUTES) {
    if (path === '/playground' && !playground) continue;
    app.all(path, (c) => errorResponse(c, new HttpError(405, 'method_not_allowed_error', `${c.req.method} ${path} is not allowed; use ${method}`, { headers: { Allow: method } })));
  }

  return {
    app,
    fetch: app.fetch,
    info,
    get activeRuns() {
      return tracker.active;
    },
    shutdown: (graceMs = SERVE_DEFAULTS.shutdownGraceMs) => tracker.drain(graceMs),
  };
}

function accessLogger(write: (line: string) => void): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    write(`${new Date().toISOString()} ${c.req.method} ${c.req.path} ${c.res.status} ${Math.round(performance.now() - started)}ms`);
  };
}

/** The Host header's name without the port (`[::1]:8000` → `[::1]`). */
function hostName(host: string | undefined): string {
  if (host === undefined) return '';
  const bracket = host.startsWith('[') ? host.indexOf(']') : -1;
  if (bracket !== -1) return host.slice(0, bracket + 1).toLowerCase();
  const colon = host.indexOf(':');
  return (colon === -1 ? host : host.slice(0, colon)).toLowerCase();
}

/**
 * One middleware for every request (fewer steps on the hot path): the Host check (403), the
 * drain (503) and the bearer token (401; the playground page itself is public: it asks for the
 * token and sends it).
 */
function guard(options: { tracker: RunTracker; hosts: readonly string[] | 'loopback' | 'any'; authToken: string | undefined }): MiddlewareHandler {
  const { tracker, hosts } = options;
  const allowed = typeof hosts === 'string' ? undefined : new Set(hosts.map((h) => h.toLowerCase()));
  const check = options.authToken === undefined ? undefined : bearerChecker(options.authToken);
  return async (c, next) => {
    if (hosts !== 'any') {
      const host = hostName(c.req.header('host') ?? new URL(c.req.url).host);
      const ok = allowed === undefined ? isLoopbackHost(host) : allowed.has(host);
      if (!ok) return errorResponse(c, new HttpError(403, 'forbidden_error', `Host "${host}" is not served here (bind with --host and --auth-token to serve other names)`));
    }
    if (tracker.draining) return errorResponse(c, new HttpError(503, 'service_unavailable_error', 'The server is shutting down', { headers: { Connection: 'close' } }));
    if (check !== undefined && !(c.req.method === 'GET' && (c.req.path === '/playground' || c.req.path === '/')) && !check(c.req.header('authorization'))) {
      return errorResponse(c, new HttpError(401, 'authentication_error', 'Missing or wrong bearer token (Authorization: Bearer <token>)', { headers: { 'WWW-Authenticate': 'Bearer' } }));
    }
    await next();
    return undefined;
  };
}
