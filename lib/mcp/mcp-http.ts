import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { bearerChecker, isLoopbackHost } from '../serve/bearer-auth.js';
import { HttpError } from '../serve/http-error.js';
import { readIncomingJson } from '../serve/json-body.js';
import { hostName } from '../serve/request-gate.js';
import { loadServerSdk, loadStreamableServerSdk } from './load-sdk.js';

/** Options of `MCPServer.listen()`. */
export interface MCPHttpOptions {
  /** Address to bind. Default `127.0.0.1` (loopback). Anything else needs `authToken`. */
  host?: string;
  /** Port. Default 0 (the OS picks one; see `port` of the result). */
  port?: number;
  /** Endpoint path. Default `/mcp`. */
  path?: string;
  /** Bearer token every request must carry (`Authorization: Bearer …`). Required off loopback. */
  authToken?: string;
  /** Host header names served. Default: loopback names, plus `host` when it is not a loopback address. */
  allowedHosts?: readonly string[];
  /** Origins browsers may call from (`http://localhost:6274`). Default: none but the server's own loopback origin; requests without Origin are not affected. */
  allowedOrigins?: readonly string[];
  /** Largest request body in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Most JSON-RPC messages in one batch. Default 16. */
  maxBatch?: number;
  /** Most open sessions. Default 64. */
  maxSessions?: number;
}

/** A running MCP HTTP server. */
export interface RunningMCPHttpServer {
  /** The endpoint, `http://127.0.0.1:PORT/mcp`. */
  url: string;
  host: string;
  port: number;
  /** Open sessions. */
  readonly sessions: number;
  /** Closes every session and stops listening. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** Who opened it: the peer address and a digest of its credential. A request from anyone else is answered 404. */
  owner: string;
}

const DEFAULTS = { host: '127.0.0.1', path: '/mcp', maxBodyBytes: 1024 * 1024, maxBatch: 16, maxSessions: 64 };

/** 256 random bits, base64url: a session id nobody can guess. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

function send(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Serves MCP over Streamable HTTP with the rules of REFERENCE.md §7: loopback by default, `Host`
 * and `Origin` checked (403) before anything else, a bearer token required off loopback (401),
 * the body (413) and batch length (400) capped, a new protocol server and transport per session,
 * 256-bit random session ids, and a session usable only by the peer that opened it (404 for
 * anyone else, as for an unknown id). Nothing reaches a tool unless every check passed.
 */
export async function listenMcpHttp(newSession: () => Promise<Server>, options: MCPHttpOptions = {}): Promise<RunningMCPHttpServer> {
  const host = options.host ?? DEFAULTS.host;
  const path = options.path ?? DEFAULTS.path;
  const loopback = isLoopbackHost(host);
  if (!loopback && options.authToken === undefined) {
    throw new ConfigurationError(`Serving MCP on ${host} (not loopback) needs a bearer token: pass authToken (--auth-token); anyone who can reach the port could call the tools`, { key: 'authToken' });
  }
  const checkToken = options.authToken === undefined ? undefined : bearerChecker(options.authToken);
  const hosts = new Set((options.allowedHosts ?? ['localhost', '127.0.0.1', '[::1]', ...(loopback ? [] : [hostName(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host)])]).map((h) => h.toLowerCase()));
  const maxBody = options.maxBodyBytes ?? DEFAULTS.maxBodyBytes;
  const maxBatch = options.maxBatch ?? DEFAULTS.maxBatch;
  const maxSessions = options.maxSessions ?? DEFAULTS.maxSessions;
  const [{ StreamableHTTPServerTransport }, sdk] = await Promise.all([loadStreamableServerSdk(), loadServerSdk()]);
  const sessions = new Map<string, Session>();
  let origins = new Set(options.allowedOrigins ?? []);

  const ownerOf = (req: IncomingMessage): string => {
    const credential = header(req, 'authorization') ?? '';
    return `${req.socket.remoteAddress ?? '?'}|${createHash('sha256').update(credential).digest('base64url')}`;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const hostHeader = header(req, 'host');
    if (!hosts.has(hostName(hostHeader))) return send(res, 403, `Host "${hostName(hostHeader)}" is not served here`);
    const origin = header(req, 'origin');
    if (origin !== undefined && !origins.has(origin)) return send(res, 403, `Origin "${origin}" is not allowed (allowedOrigins)`);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== path) return send(res, 404, `Not found: the MCP endpoint is ${path}`);
    if (checkToken !== undefined && !checkToken(header(req, 'authorization'))) {
      return send(res, 401, 'Missing or wrong bearer token (Authorization: Bearer <token>)', { 'WWW-Authenticate': 'Bearer' });
    }
    const method = req.method ?? 'GET';
    if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') return send(res, 405, `Method ${method} is not allowed`, { Allow: 'GET, POST, DELETE' });
    const sessionId = header(req, 'mcp-session-id');
    let body: unknown;
    if (method === 'POST') {
      try {
        body = await readIncomingJson(req, maxBody);
      } catch (error) {
        if (HttpError.isInstance(error)) return send(res, error.status, error.message);
        throw error;
      }
      if (Array.isArray(body) && body.length > maxBatch) return send(res, 400, `A batch may hold at most ${maxBatch} messages; got ${body.length}`);
    }
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      // An unknown id and another client's id get the same answer: nothing tells them apart.
      if (session === undefined || session.owner !== ownerOf(req)) return send(res, 404, 'Session not found');
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (method !== 'POST') return send(res, 400, 'Mcp-Session-Id header is required');
    const messages = Array.isArray(body) ? body : [body];
    if (!messages.some((m) => sdk.types.isInitializeRequest(m))) return send(res, 400, 'No session: the first request must be initialize (without Mcp-Session-Id)');
    if (sessions.size >= maxSessions) return send(res, 503, `Too many open sessions (${maxSessions})`, { 'Retry-After': '5' });
    const server = await newSession();
    const owner = ownerOf(req);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: newSessionId,
      onsessioninitialized: (id) => void sessions.set(id, { transport, server, owner }),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, `Internal error: ${error instanceof Error ? error.message : String(error)}`));
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  if (options.allowedOrigins === undefined) origins = new Set([`http://${shownHost}:${port}`, `http://localhost:${port}`, `http://127.0.0.1:${port}`].filter(() => loopback));
  return {
    url: `http://${shownHost}:${port}${path}`,
    host,
    port,
    get sessions() {
      return sessions.size;
    },
    close: async () => {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map((s) => s.server.close()));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
