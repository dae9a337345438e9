/** The CORS headers of one response, by the request's Origin header. */
export type CorsHeaders = (origin: string | undefined) => Readonly<Record<string, string>>;

/**
 * The CORS headers `hono/cors` puts on an actual (not preflight) response for `cors({ origin })`:
 * `Access-Control-Allow-Origin` when the request's Origin is the allowed one (always, for `*`),
 * and `Vary: Origin` unless the origin is `*`. The Node fast path answers with these; preflight
 * requests always go through Hono. A test compares both paths header by header.
 */
export function corsResponseHeaders(allowed: string): CorsHeaders {
  if (allowed === '*') {
    const any = { 'Access-Control-Allow-Origin': '*' };
    return () => any;
  }
  const match = { 'Access-Control-Allow-Origin': allowed, Vary: 'Origin' };
  const other = { Vary: 'Origin' };
  return (origin) => (origin === allowed && allowed !== '' ? match : other);
}
