import { createHash, timingSafeEqual } from 'node:crypto';
import { ConfigurationError } from '../core/errors/configuration-error.js';

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Why `token` can never be sent as a bearer token, or undefined when it can: an empty token, or one
 * with whitespace (a Bearer credential is one word, so such a token could never match).
 */
export function bearerTokenProblem(token: string): string | undefined {
  if (token === '') return 'the token is empty';
  if (/\s/.test(token)) return `the token contains whitespace (${token.trim() === '' ? 'it is only whitespace' : 'a Bearer token is one word'}), so no request could ever match it`;
  return undefined;
}

/**
 * Checks `Authorization: Bearer <token>` against the server's token in constant time: both sides
 * are hashed to 32 bytes first, so neither the content nor the length of the token leaks through
 * timing. The scheme is matched without regard to case (RFC 9110), the token exactly; the scheme and
 * the token are separated by spaces (RFC 6750: `1*SP`) and nothing else may come before, between or
 * after. Throws a ConfigurationError for a token that could never match (empty, whitespace).
 */
export function bearerChecker(token: string): (authorization: string | undefined | null) => boolean {
  const problem = bearerTokenProblem(token);
  if (problem !== undefined) throw new ConfigurationError(`Invalid auth token: ${problem}.`, { key: 'authToken' });
  const expected = digest(token);
  return (authorization) => {
    if (typeof authorization !== 'string') return false;
    const match = /^Bearer +(\S+)$/i.exec(authorization);
    const given = match?.[1];
    if (given === undefined) return false;
    return timingSafeEqual(digest(given), expected);
  };
}

/** True for addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare) || bare === '::ffff:127.0.0.1';
}
