import { createHash, timingSafeEqual } from 'node:crypto';

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Checks `Authorization: Bearer <token>` against the server's token in constant time: both sides
 * are hashed to 32 bytes first, so neither the content nor the length of the token leaks through
 * timing.
 */
export function bearerChecker(token: string): (authorization: string | undefined | null) => boolean {
  const expected = digest(token);
  return (authorization) => {
    if (typeof authorization !== 'string') return false;
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
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
