import type { IncomingMessage, ServerResponse } from 'node:http';
import { accessLogLine } from './access-log.js';
import type { CorsHeaders } from './cors-headers.js';
import { endAfterBody } from './end-after-body.js';
import { requestFailure } from './error-mapping.js';
import type { HttpError } from './http-error.js';
import { readIncomingJson } from './json-body.js';
import type { RequestGate } from './request-gate.js';
import { invoke } from './routes/invoke.js';
import { startStream } from './routes/stream.js';
import type { ServeRuntime } from './runtime.js';
import { nodeEventStream } from './sse-stream.js';

/** What the fast path shares with the Hono app: the same runtime, gate, CORS headers and access log. */
export interface FastPathDeps {
  runtime: ServeRuntime;
  gate: RequestGate;
  cors: CorsHeaders | undefined;
  accessLog: ((line: string) => void) | undefined;
}

/** Serves a request and returns true, or returns false without touching it (Hono serves it). */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Host headers the fast path takes: those @hono/node-server takes as they are (lower-case names
 * and ports). Anything else (no Host, upper case, IPv6 literals) goes through Hono, which
 * validates it its own way.
 */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;
const NO_HEADERS: Readonly<Record<string, string>> = {};

/**
 * `POST /invoke` and `POST /stream` served straight on Node's request and response, without
 * building a Web Request, a Hono context or a Web Response: the routes whose speed matters. It
 * runs the code the Hono routes run (the request gate, `invoke`, `startStream`, `readIncomingJson`,
 * `requestFailure`) and answers with the same statuses, headers and bodies; every other request
 * (other paths and methods, a query string, an unusual Host header) is left to Hono. A test sends
 * every status of both routes through both paths and compares the answers.
 */
export function createFastPath(deps: FastPathDeps): FastPath {
  const { runtime, gate, cors, accessLog } = deps;
  return (req, res) => {
    if (req.method !== 'POST') return false;
    const path = req.url;
    if (path !== '/invoke' && path !== '/stream') return false;
    const host = req.headers.host;
    if (host === undefined || !PLAIN_HOST.test(host)) return false;
    const started = accessLog === undefined ? 0 : performance.now();
    const exchange: Exchange = { req, res, path, started, accessLog, logError: runtime.logError, cors: cors === undefined ? NO_HEADERS : cors(req.headers.origin) };
    const rejected = gate('POST', path, host, req.headers.authorization);
    if (rejected !== undefined) answer(exchange, () => sendFailure(exchange, rejected));
    else if (path === '/invoke') serveInvoke(runtime, exchange);
    else void serveStream(runtime, exchange).catch((error: unknown) => cannotAnswer(exchange, error));
    return true;
  };
}

/** One request on the fast path. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  path: string;
  started: number;
  accessLog: ((line: string) => void) | undefined;
  logError: (message: string, error: unknown) => void;
  cors: Readonly<Record<string, string>>;
}

function serveInvoke(runtime: ServeRuntime, exchange: Exchange): void {
  void invoke(runtime, (signal) => readIncomingJson(exchange.req, runtime.bodyLimitBytes, signal)).then(
    (body) => {
      try {
        sendJson(exchange, 200, JSON.stringify(body), NO_HEADERS);
      } catch (error) {
        cannotAnswer(exchange, error);
      }
    },
    (error: unknown) => answer(exchange, () => sendFailure(exchange, requestFailure(error, 'POST', exchange.path, exchange.logError))),
  );
}

async function serveStream(runtime: ServeRuntime, exchange: Exchange): Promise<void> {
  const { req, res } = exchange;
  try {
    await startStream(runtime, (signal) => readIncomingJson(req, runtime.bodyLimitBytes, signal), (onClientGone) => {
      logAccess(exchange, 200);
      return { sse: nodeEventStream(res, onClientGone, { keepAliveMs: runtime.keepAliveMs, headers: exchange.cors }), response: undefined };
    });
  } catch (error) {
    if (res.headersSent) return;
    sendFailure(exchange, requestFailure(error, 'POST', exchange.path, exchange.logError));
  }
}

function sendFailure(exchange: Exchange, failure: HttpError): void {
  sendJson(exchange, failure.status, JSON.stringify(failure.toJSON()), failure.headers);
}

function sendJson(exchange: Exchange, status: number, body: string, headers: Readonly<Record<string, string>>): void {
  const { req, res, cors } = exchange;
  // Logged before the answer goes out, as the Hono access logger does.
  logAccess(exchange, status);
  // A flat [name, value, …] list: Node takes it without walking an object.
  const head = ['Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(body))];
  for (const extra of [cors, headers]) for (const name in extra) head.push(name, extra[name] as string);
  res.writeHead(status, head);
  if (req.complete) {
    res.end(body);
    return;
  }
  // Answered before its body was read (413, 401, 429, 408, 504): the answer goes out now, the
  // connection ends once the rest of the body was dropped (bounded).
  res.write(body);
  endAfterBody(req, res, () => res.end());
}

/** Writes an answer; if that fails, the failure is logged and the connection dropped. */
function answer(exchange: Exchange, write: () => void): void {
  try {
    write();
  } catch (error) {
    cannotAnswer(exchange, error);
  }
}

/** Writing the answer itself failed: logged, and the connection is dropped (as @hono/node-server does). */
function cannotAnswer(exchange: Exchange, error: unknown): void {
  exchange.logError(`POST ${exchange.path} could not be answered`, error);
  exchange.res.destroy();
}

function logAccess(exchange: Exchange, status: number): void {
  exchange.accessLog?.(accessLogLine('POST', exchange.path, status, exchange.started));
}
