/// <reference types="node" preserve="true" />
// agentlib/serve hands out node:http types (the request listener, the Server): its declarations need @types/node.
import type { RequestListener } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { Agent } from '../agent/agent.js';
import type { AgentConfig } from '../agent/types.js';
import { accessLogger, errorResponse, guard } from './middleware.js';
import { agentlibVersion, describeAgent, type AgentInfo } from './agent-info.js';
import { corsResponseHeaders } from './cors-headers.js';
import { requestFailure } from './error-mapping.js';
import type { HttpServeOptions } from './http-serve-options.js';
import { HttpError } from './http-error.js';
import { KeyedLock } from './keyed-lock.js';
import { endAfterBodyOf } from './end-after-body.js';
import { createFastPath } from './node-fast-path.js';
import { createRequestGate } from './request-gate.js';
import { chatCompletionsRoute } from './routes/chat-completions.js';
import { healthRoute, openApiRoute, schemaRoute } from './routes/info.js';
import { invokeRoute } from './routes/invoke.js';
import { playgroundRoute } from './routes/playground.js';
import { streamRoute } from './routes/stream.js';
import { RunTracker, type DrainResult } from './run-tracker.js';
import type { ServeRuntime } from './runtime.js';
import { InMemorySessionStore, type InMemorySessionStoreOptions, type SessionEviction, type SessionStore } from './session-store.js';
import type { SessionStore as PersistentSessionStore } from '../sessions/types.js';
import type { StoredSessions } from './run-agent.js';

/** Defaults of the server's limits. */
export const SERVE_DEFAULTS = {
  bodyLimitBytes: 1024 * 1024,
  timeoutMs: 120_000,
  bodyTimeoutMs: 30_000,
  maxSessionBytes: 4 * 1024 * 1024,
  maxConcurrency: 32,
  shutdownGraceMs: 10_000,
} as const;

/** Options of {@link createServeApp}. */
export interface ServeAppOptions extends HttpServeOptions {
  /**
   * The agent. An AgentConfig: every request runs on a fresh `new Agent(config)` (built from the
   * same provider, tools and settings; its own history, usage and approvals). Or a function that
   * returns a fresh Agent per call.
   */
  agent: AgentConfig | (() => Agent);
  /**
   * Where `session_id` conversations live: a persistent store of `agentlib/sessions` (SQLite,
   * Redis — shared by several server processes —, JSON files; needs `agent` as an AgentConfig,
   * each request's Agent continuing the session itself), a SessionStore of this module, or the
   * bounds of the default InMemorySessionStore (10,000 sessions, 256 MiB, idle ones expire after
   * an hour), whose evictions go to `logNotice`.
   */
  sessions?: SessionStore | PersistentSessionStore | Omit<InMemorySessionStoreOptions, 'onEvict'>;
  /**
   * Largest session a request may continue: its stored messages plus the request's, as JSON in
   * UTF-8 bytes (413 past it, before the run). Default 4 MiB.
   */
  maxSessionBytes?: number;
  /** Passed to tools as `ctx.context` (never taken from requests). */
  toolContext?: unknown;
  /** Notices (a session dropped from the default session store to stay within its bounds). Default: `console.error`. */
  logNotice?: (line: string) => void;
}

/** Options of {@link ServeApp.requestListener}. */
export interface RequestListenerOptions {
  /** The host name of requests without a Host header (as @hono/node-server's `hostname`). */
  hostname?: string;
  /**
   * Where the requests the fast path does not take go. Default: the Hono app, through
   * @hono/node-server's `getRequestListener`.
   */
  fallback?: RequestListener;
}

/**
 * A served agent: the Hono app (`app.request()` in tests, `app.fetch` for any fetch-based server),
 * a Node request listener, and its lifecycle.
 */
export interface ServeApp {
  readonly app: Hono;
  readonly fetch: Hono['fetch'];
  /**
   * A `node:http` request listener serving every route (what `listen` uses): `POST /invoke` and
   * `POST /stream` straight on Node's request and response (the fast path: same code, statuses,
   * headers and bodies as the Hono routes, a fraction of the overhead), everything else through
   * the Hono app. `http.createServer(served.requestListener())`.
   */
  requestListener(options?: RequestListenerOptions): RequestListener;
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
  const tracker = new RunTracker({
    maxConcurrency: options.maxConcurrency ?? SERVE_DEFAULTS.maxConcurrency,
    timeoutMs: options.timeoutMs ?? SERVE_DEFAULTS.timeoutMs,
    bodyTimeoutMs: options.bodyTimeoutMs ?? SERVE_DEFAULTS.bodyTimeoutMs,
  });
  const logError = options.logError ?? ((message: string, error: unknown) => console.error(`agentlib serve: ${message}:`, error));
  const logNotice = options.logNotice ?? ((line: string) => console.error(`agentlib serve: ${line}`));
  const playground = options.playground ?? true;
  const runtime: ServeRuntime = {
    tracker,
    runner: {
      createAgent,
      sessions: isSessionStore(options.sessions) ? options.sessions : new InMemorySessionStore({ ...(isPersistentStore(options.sessions) ? {} : options.sessions), onEvict: (eviction) => logNotice(evictionNotice(eviction)) }),
      ...(isPersistentStore(options.sessions) ? { stored: storedSessions(options.sessions, config) } : {}),
      locks: new KeyedLock(),
      maxSessionBytes: options.maxSessionBytes ?? SERVE_DEFAULTS.maxSessionBytes,
      ...(options.toolContext === undefined ? {} : { toolContext: options.toolContext }),
      ...(options.traceStore === undefined ? {} : { traces: { store: options.traceStore, onError: (error: unknown, runId: string) => logError(`the trace of run ${runId} could not be saved`, error) } }),
    },
    info,
    bodyLimitBytes: options.bodyLimitBytes ?? SERVE_DEFAULTS.bodyLimitBytes,
    keepAliveMs: options.keepAliveMs ?? 15_000,
    logError,
    playground,
    auth: options.authToken !== undefined,
  };

  const app = new Hono();
  app.onError((error, c) => errorResponse(c, requestFailure(error, c.req.method, c.req.path, logError)));
  app.notFound((c) => errorResponse(c, new HttpError(404, 'not_found_error', `No route ${c.req.method} ${c.req.path}`)));
  if (options.accessLog !== undefined) app.use('*', accessLogger(options.accessLog));
  if (options.cors !== undefined) app.use('*', cors({ origin: options.cors, allowMethods: ['GET', 'POST', 'OPTIONS'], allowHeaders: ['Authorization', 'Content-Type'], maxAge: 600 }));
  const gate = createRequestGate({ tracker, hosts: options.allowedHosts ?? (options.authToken === undefined ? 'loopback' : 'any'), authToken: options.authToken });
  app.use('*', guard(gate));

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

  const fastPath = createFastPath({ runtime, gate, cors: options.cors === undefined ? undefined : corsResponseHeaders(options.cors), accessLog: options.accessLog });
  return {
    app,
    fetch: app.fetch,
    requestListener: (listenerOptions = {}) => {
      // Made on demand: getRequestListener replaces the global Request and Response with
      // @hono/node-server's lighter ones, which `app.request()` users need not get.
      const fallback = listenerOptions.fallback ?? getRequestListener(app.fetch, listenerOptions.hostname === undefined ? {} : { hostname: listenerOptions.hostname });
      return (req, res) => {
        if (fastPath(req, res)) return;
        endAfterBodyOf(req, res);
        void fallback(req, res);
      };
    },
    info,
    get activeRuns() {
      return tracker.active;
    },
    shutdown: (graceMs = SERVE_DEFAULTS.shutdownGraceMs) => tracker.drain(graceMs),
  };
}

function isPersistentStore(value: ServeAppOptions['sessions']): value is PersistentSessionStore {
  return value !== undefined && typeof (value as Partial<PersistentSessionStore>).append === 'function';
}

function isSessionStore(value: ServeAppOptions['sessions']): value is SessionStore {
  return value !== undefined && !isPersistentStore(value) && typeof (value as Partial<SessionStore>).load === 'function';
}

/** A persistent store's runner: each request's Agent is `new Agent({ ...config, session })`. */
function storedSessions(store: PersistentSessionStore, config: AgentConfig | undefined): StoredSessions {
  if (config === undefined) throw new ConfigurationError('createServeApp: a persistent session store needs `agent` as an AgentConfig (each request builds an Agent on its session)', { key: 'sessions' });
  if (config.session !== undefined || config.sessionStore !== undefined || config.sessionId !== undefined) {
    throw new ConfigurationError('createServeApp: the agent config must not bind a session of its own; requests choose theirs with session_id', { key: 'session' });
  }
  return { store, createAgent: (session) => new Agent({ ...config, session }) };
}

function evictionNotice(eviction: SessionEviction): string {
  const bound = eviction.reason === 'bytes' ? 'its byte limit' : 'its session count limit';
  return `session "${eviction.sessionId}" (${eviction.bytes} bytes) dropped from the in-memory session store, least recently used, to stay within ${bound}`;
}


