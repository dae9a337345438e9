import { bearerChecker, isLoopbackHost } from './bearer-auth.js';
import { HttpError } from './http-error.js';
import type { RunTracker } from './run-tracker.js';

/** Which Host names the server answers: loopback names, any, or a list. */
export type AllowedHosts = readonly string[] | 'loopback' | 'any';

/**
 * The checks every request passes before its route runs: the Host check (403), the drain (503)
 * and the bearer token (401). Returns the error to answer with, or undefined to go on.
 */
export type RequestGate = (method: string, path: string, host: string | undefined, authorization: string | undefined) => HttpError | undefined;

/** The Host header's name without the port (`[::1]:8000` → `[::1]`). */
export function hostName(host: string | undefined): string {
  if (host === undefined) return '';
  const bracket = host.startsWith('[') ? host.indexOf(']') : -1;
  if (bracket !== -1) return host.slice(0, bracket + 1).toLowerCase();
  const colon = host.indexOf(':');
  return (colon === -1 ? host : host.slice(0, colon)).toLowerCase();
}

/**
 * Builds the gate shared by the Hono middleware and the Node fast path, so both answer a request
 * the same way. The playground page (`GET /playground`, `GET /`) needs no token: it asks for one.
 */
export function createRequestGate(options: { tracker: RunTracker; hosts: AllowedHosts; authToken: string | undefined }): RequestGate {
  const { tracker, hosts } = options;
  const allowed = typeof hosts === 'string' ? undefined : new Set(hosts.map((h) => h.toLowerCase()));
  const check = options.authToken === undefined ? undefined : bearerChecker(options.authToken);
  // Clients send the same Host header again and again: its verdict is kept for the next request.
  let lastHeader: string | undefined;
  let lastOk = false;
  const hostAllowed = (header: string | undefined): boolean => {
    if (header !== undefined && header === lastHeader) return lastOk;
    const host = hostName(header);
    const ok = allowed === undefined ? isLoopbackHost(host) : allowed.has(host);
    lastHeader = header;
    lastOk = ok;
    return ok;
  };
  return (method, path, hostHeader, authorization) => {
    if (hosts !== 'any' && !hostAllowed(hostHeader)) {
      return new HttpError(403, 'forbidden_error', `Host "${hostName(hostHeader)}" is not served here (bind with --host and --auth-token to serve other names)`);
    }
    if (tracker.draining) return new HttpError(503, 'service_unavailable_error', 'The server is shutting down', { headers: { Connection: 'close' } });
    if (check !== undefined && !(method === 'GET' && (path === '/playground' || path === '/')) && !check(authorization)) {
      return new HttpError(401, 'authentication_error', 'Missing or wrong bearer token (Authorization: Bearer <token>)', { headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    return undefined;
  };
}
