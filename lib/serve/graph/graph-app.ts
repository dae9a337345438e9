/// <reference types="node" preserve="true" />
// agentlib/serve hands out node:http types (the request listener): its declarations need @types/node.
import type { RequestListener } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import type { AgentObserver } from '../../events/observer.js';
import { redactSecrets } from '../../events/redact.js';
import type { AgentGraph, GraphInput } from '../../graph/agent-graph.js';
import type { CheckpointStore } from '../../graph/checkpoint/types.js';
import type { GraphStream } from '../../graph/graph-stream.js';
import type { GraphResult } from '../../graph/types.js';
import { GraphRunTrace } from '../../trace/graph-run-trace.js';
import { accessLogger, errorResponse, guard } from '../middleware.js';
import { agentlibVersion } from '../agent-info.js';
import { endAfterBodyOf } from '../end-after-body.js';
import { HttpError } from '../http-error.js';
import type { HttpServeOptions } from '../http-serve-options.js';
import type { TraceStore } from '../../trace/stores/types.js';
import { readJsonBody } from '../json-body.js';
import { KeyedLock } from '../keyed-lock.js';
import { pageHeaders } from '../page-csp.js';
import { createRequestGate, type AllowedHosts } from '../request-gate.js';
import { clientClosed } from '../routes/run-outcome.js';
import type { RunSlot } from '../run-slot.js';
import { RunTracker, type DrainResult } from '../run-tracker.js';
import { webEventStream } from '../sse-stream.js';
import { graphHttpError } from './graph-error-mapping.js';
import { graphPlaygroundPage } from './graph-playground-html.js';
import { parseGraphResumeRequest, parseGraphRunRequest, parseThreadId, type GraphRunRequest } from './graph-request.js';
import { checkpointSummary, toGraphInvokeResponse, type GraphInvokeResponse } from './graph-response.js';
import { GRAPH_RUN_REQUEST_SCHEMA, GRAPH_RESUME_REQUEST_SCHEMA } from './graph-schemas.js';

/** Options of {@link createGraphServeApp}. */
export interface GraphServeAppOptions extends HttpServeOptions {
  /** The graph. Requests share it (it holds no per-run state); each run has its own state and thread. */
  graph: AgentGraph;
  /**
   * Where threads live: a checkpoint after every step and at every interrupt. Servers sharing one
   * store (PostgreSQL) resume each other's interrupted runs.
   */
  checkpointStore: CheckpointStore;
}

/** A served graph: the Hono app (`app.request()` in tests), a Node request listener, its lifecycle. */
export interface GraphServeApp {
  readonly app: Hono;
  readonly fetch: Hono['fetch'];
  /** A `node:http` request listener (what `listen` uses). */
  requestListener(options?: { hostname?: string }): RequestListener;
  /** Requests running now. */
  readonly activeRuns: number;
  /** New requests get 503; in-flight ones finish within `graceMs`, then are aborted. */
  shutdown(graceMs?: number): Promise<DrainResult>;
}

const ROUTES: readonly (readonly [string, string])[] = [
  ['/invoke', 'POST'],
  ['/stream', 'POST'],
  ['/resume', 'POST'],
  ['/health', 'GET'],
  ['/schema', 'GET'],
];

interface Runtime {
  graph: AgentGraph;
  store: CheckpointStore;
  tracker: RunTracker;
  /** One run or resume per thread at a time in this process. */
  locks: KeyedLock;
  bodyLimitBytes: number;
  keepAliveMs: number;
  logError: (message: string, error: unknown) => void;
  traceStore: TraceStore | undefined;
}


/**
 * Builds the HTTP app of a served graph (`agentlib serve graph.yaml`): `POST /invoke` runs it
 * (an interrupted run answers with `interrupt_id`, prompt and payload), `POST /stream` runs it with
 * server-sent events (graph and node events, every nested agent event with its token deltas, then
 * `result`), `POST /resume` answers an interrupt (any server sharing the checkpoint store can),
 * `GET /threads/:thread_id/checkpoints` and `GET /checkpoints/:id` (history, time travel),
 * `GET /health`, `GET /schema`, and `GET /playground` (a page that runs the graph, shows its
 * progress node by node and answers its interrupts; `GET /` redirects to it). JSON errors with real status codes, the same limits, bearer auth,
 * Host check, CORS and graceful shutdown as a served agent.
 */
export function createGraphServeApp(options: GraphServeAppOptions): GraphServeApp {
  options.graph.validate();
  const tracker = new RunTracker({ maxConcurrency: options.maxConcurrency ?? 32, timeoutMs: options.timeoutMs ?? 120_000, bodyTimeoutMs: options.bodyTimeoutMs ?? 30_000 });
  const runtime: Runtime = {
    graph: options.graph,
    store: options.checkpointStore,
    tracker,
    locks: new KeyedLock(),
    bodyLimitBytes: options.bodyLimitBytes ?? 1024 * 1024,
    keepAliveMs: options.keepAliveMs ?? 15_000,
    logError: options.logError ?? ((message, error) => console.error(`agentlib serve: ${message}:`, error)),
    traceStore: options.traceStore,
  };
  const app = new Hono();
  app.onError((error, c) => {
    const failure = graphHttpError(error);
    if (failure.status === 500 || failure.status === 502) runtime.logError(`${c.req.method} ${c.req.path} failed`, error);
    return errorResponse(c, failure);
  });
  app.notFound((c) => errorResponse(c, new HttpError(404, 'not_found_error', `No route ${c.req.method} ${c.req.path}`)));
  if (options.accessLog !== undefined) app.use('*', accessLogger(options.accessLog));
  if (options.cors !== undefined) app.use('*', cors({ origin: options.cors, allowMethods: ['GET', 'POST', 'OPTIONS'], allowHeaders: ['Authorization', 'Content-Type'], maxAge: 600 }));
  const hosts: AllowedHosts = options.allowedHosts ?? (options.authToken === undefined ? 'loopback' : 'any');
  app.use('*', guard(createRequestGate({ tracker, hosts, authToken: options.authToken })));

  app.post('/invoke', (c) => invoke(runtime, c));
  app.post('/stream', (c) => stream(runtime, c));
  app.post('/resume', (c) => resume(runtime, c));
  app.get('/threads/:thread/checkpoints', (c) => listCheckpoints(runtime, c));
  app.get('/checkpoints/:id', (c) => getCheckpoint(runtime, c));
  const version = options.version ?? agentlibVersion();
  app.get('/health', (c) => c.json({ status: 'ok', version, graph: runtime.graph.name, nodes: runtime.graph.nodeNames, active_runs: tracker.active }));
  const schema = { name: runtime.graph.name, kind: 'graph', graph: runtime.graph.toJSON(), input_schema: GRAPH_RUN_REQUEST_SCHEMA, resume_schema: GRAPH_RESUME_REQUEST_SCHEMA };
  app.get('/schema', (c) => c.json(schema));
  const playground = options.playground ?? true;
  if (playground) {
    app.get('/', (c) => c.redirect('/playground'));
    app.get('/playground', (c) => {
      const { html, csp } = graphPlaygroundPage();
      return c.html(html, 200, pageHeaders(csp));
    });
  }
  for (const [path, method] of playground ? [...ROUTES, ['/playground', 'GET'] as const] : ROUTES) {
    app.all(path, (c) => errorResponse(c, new HttpError(405, 'method_not_allowed_error', `${c.req.method} ${path} is not allowed; use ${method}`, { headers: { Allow: method } })));
  }
  return {
    app,
    fetch: app.fetch,
    requestListener: (listenerOptions = {}) => {
      const fallback = getRequestListener(app.fetch, listenerOptions.hostname === undefined ? {} : { hostname: listenerOptions.hostname });
      return (req, res) => {
        endAfterBodyOf(req, res);
        void fallback(req, res);
      };
    },
    get activeRuns() {
      return tracker.active;
    },
    shutdown: (graceMs = 10_000) => tracker.drain(graceMs),
  };
}

function inputOf(request: GraphRunRequest): GraphInput {
  return request.messages;
}

/** A new thread must be new: running on a thread with checkpoints would mix two runs (409). */
async function checkNewThread(runtime: Runtime, threadId: string | undefined): Promise<void> {
  if (threadId === undefined) return;
  if (await runtime.store.getLatest(threadId)) {
    throw new HttpError(409, 'conflict_error', `thread "${threadId}" already has checkpoints: answer its interrupt with POST /resume, or start a new thread`);
  }
}

/**
 * Runs `start` with an observer recording its trace (when the server keeps traces), then saves
 * the trace — the result's status, or `error` when the run threw — before settling as the run did.
 */
async function traced(runtime: Runtime, start: (observers: AgentObserver[]) => Promise<GraphResult>): Promise<GraphResult> {
  const store = runtime.traceStore;
  if (store === undefined) return start([]);
  const trace = new GraphRunTrace();
  let result: GraphResult | undefined;
  try {
    result = await start([trace.observer]);
    return result;
  } finally {
    const finished = trace.finish(result);
    if (finished !== undefined) {
      try {
        await store.save(finished.toJSON());
      } catch (error) {
        runtime.logError(`the trace of graph run ${finished.runId} could not be saved`, error);
      }
    }
  }
}

/** A run cut short by the slot (timeout, shutdown, client gone) is answered with the reason (504, 503). */
function throwIfCut(slot: RunSlot, result: GraphResult): void {
  if (!slot.signal.aborted || result.status !== 'cancelled') return;
  const reason: unknown = slot.signal.reason;
  throw HttpError.isInstance(reason) ? reason : new HttpError(503, 'service_unavailable_error', 'The run was cancelled');
}

async function invoke(runtime: Runtime, c: Context): Promise<Response> {
  const slot = runtime.tracker.acquire();
  try {
    const request = parseGraphRunRequest(await slot.readBody((signal) => readJsonBody(c, runtime.bodyLimitBytes, signal)));
    const run = async (): Promise<GraphResult> => {
      await checkNewThread(runtime, request.threadId);
      return traced(runtime, (observers) => runtime.graph.run(inputOf(request), { ...runOptions(runtime, request, slot.signal), observers }));
    };
    const result = await slot.race(request.threadId === undefined ? run() : runtime.locks.run(request.threadId, run));
    throwIfCut(slot, result);
    return c.json(toGraphInvokeResponse(result, request.metadata));
  } finally {
    slot.release();
  }
}

function runOptions(runtime: Runtime, request: GraphRunRequest, signal: AbortSignal): Parameters<AgentGraph['run']>[1] {
  return {
    checkpointStore: runtime.store,
    signal,
    ...(request.threadId === undefined ? {} : { threadId: request.threadId }),
    ...(request.data === undefined ? {} : { data: request.data }),
  };
}

async function stream(runtime: Runtime, c: Context): Promise<Response> {
  const slot = runtime.tracker.acquire();
  let started = false;
  try {
    const request = parseGraphRunRequest(await slot.readBody((signal) => readJsonBody(c, runtime.bodyLimitBytes, signal)));
    if (request.threadId !== undefined) await checkNewThread(runtime, request.threadId);
    const open = (observers: AgentObserver[]): GraphStream => runtime.graph.stream(inputOf(request), { ...runOptions(runtime, request, slot.signal), observers });
    const response = streamInto(runtime, c, slot, request.threadId, open, request.metadata);
    started = true;
    return response;
  } finally {
    if (!started) slot.release();
  }
}

async function resume(runtime: Runtime, c: Context): Promise<Response> {
  const slot = runtime.tracker.acquire();
  let started = false;
  try {
    const request = parseGraphResumeRequest(await slot.readBody((signal) => readJsonBody(c, runtime.bodyLimitBytes, signal)));
    const threadId = request.interruptId.slice(0, request.interruptId.lastIndexOf(':'));
    const options = { checkpointStore: runtime.store, signal: slot.signal };
    if (request.stream) {
      const response = streamInto(runtime, c, slot, threadId, (observers) => runtime.graph.streamResume(request.interruptId, request.response, { ...options, observers }), request.metadata);
      started = true;
      return response;
    }
    const result = await slot.race(runtime.locks.run(threadId, () => traced(runtime, (observers) => runtime.graph.resume(request.interruptId, request.response, { ...options, observers }))));
    throwIfCut(slot, result);
    return c.json(toGraphInvokeResponse(result, request.metadata));
  } finally {
    if (!started) slot.release();
  }
}

/**
 * Runs `open()`'s stream into an SSE response: every event under its own name (graph events, node
 * events, the nested agents' events with their token deltas; each nested one carries
 * `parentRunId`), then `result` (the /invoke object), or `error` (`{ error, status, run_id }`,
 * `status` set only on this last frame), then the stream ends. A client that goes away aborts the run.
 */
function streamInto(runtime: Runtime, c: Context, slot: RunSlot, threadId: string | undefined, open: (observers: AgentObserver[]) => GraphStream, metadata: Record<string, unknown> | undefined): Response {
  const onClientGone = (): void => slot.abort(clientClosed());
  const { sse, response } = webEventStream(onClientGone, { keepAliveMs: runtime.keepAliveMs });
  c.req.raw.signal.addEventListener('abort', onClientGone, { once: true });
  let runId: string | undefined;
  const work = async (): Promise<GraphInvokeResponse> => {
    const result = await traced(runtime, async (observers) => {
      const events = open(observers);
      for await (const event of events) {
        if (runId === undefined && event.type === 'graph-start') runId = event.runId;
        sse.send(event.type, event.type === 'text-delta' || event.type === 'reasoning-delta' ? event : (redactSecrets(event)));
      }
      return events.result;
    });
    throwIfCut(slot, result);
    return toGraphInvokeResponse(result, metadata);
  };
  slot
    .race(threadId === undefined ? work() : runtime.locks.run(threadId, work))
    .then((body) => sse.send('result', body))
    .catch((error: unknown) => {
      const failure = graphHttpError(error);
      if (failure.status >= 500 && failure.status !== 503 && failure.status !== 504) runtime.logError('graph stream failed', error);
      sse.send('error', { ...failure.toJSON(), status: failure.status, ...(runId === undefined ? {} : { run_id: runId }) });
    })
    .finally(() => {
      sse.close();
      slot.release();
    });
  return response;
}

async function listCheckpoints(runtime: Runtime, c: Context): Promise<Response> {
  const threadId = parseThreadId(c.req.param('thread'), 'thread id');
  const limitText = c.req.query('limit');
  const limit = limitText === undefined ? 20 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new HttpError(400, 'invalid_request_error', '"limit" must be an integer from 1 to 1000');
  const before = c.req.query('before');
  const page = await runtime.store.list(threadId, { limit, ...(before === undefined ? {} : { before }) });
  if (page.length === 0 && before === undefined) throw new HttpError(404, 'not_found_error', `thread "${threadId}" has no checkpoints`);
  return c.json({ thread_id: threadId, checkpoints: page.map(checkpointSummary), next_before: page.length === limit ? (page.at(-1)?.id ?? null) : null });
}

async function getCheckpoint(runtime: Runtime, c: Context): Promise<Response> {
  const id = parseThreadId(c.req.param('id'), 'checkpoint id');
  const checkpoint = await runtime.store.get(id);
  if (!checkpoint) throw new HttpError(404, 'not_found_error', `no checkpoint "${id}"`);
  return c.json({ ...checkpointSummary(checkpoint), state: checkpoint.state });
}


