import { lookup as dnsLookup } from 'node:dns';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { UrlRefusedError } from '../../core/errors/url-refused-error.js';
import { nonPublicReason } from './ip-address.js';

export { UrlRefusedError };

/** Options of safeFetch. */
export interface SafeFetchOptions {
  /** Cancels the request (e.g. the tool's `ctx.signal`). */
  signal?: AbortSignal | undefined;
  /** Time limit for the whole fetch, redirects included. Default 15,000 ms. */
  timeoutMs?: number | undefined;
  /** Body bytes kept (after decompression); the download is aborted past it. Default 1,000,000. */
  maxBytes?: number | undefined;
  /** Redirects followed, each re-checked. Default 5. */
  maxRedirects?: number | undefined;
  /**
   * Lets non-public addresses through: `true` for all of them, or a list of exact IP literals
   * (e.g. `['127.0.0.1']` for a test server). Default: none; only for tests and trusted setups.
   */
  allowPrivate?: boolean | readonly string[] | undefined;
  /** Extra request headers (they replace the defaults of the same name, e.g. `user-agent`). */
  headers?: Record<string, string> | undefined;
}

/** What safeFetch returns. */
export interface SafeFetchResult {
  /** The URL of the final response (after redirects). */
  url: string;
  status: number;
  /** Response headers, lowercase names (Node's IncomingHttpHeaders). */
  headers: Record<string, string | string[] | undefined>;
  /** The media type without parameters, lowercased ('' when missing). */
  contentType: string;
  /** The `charset` parameter of Content-Type, if any. */
  charset: string | undefined;
  /** The body bytes (a Buffer at run time). */
  body: Uint8Array;
  /** True when the body was cut at `maxBytes`. */
  truncated: boolean;
  /** The URLs that redirected, in order. */
  redirects: string[];
}

type AddressPolicy = (address: string) => string | undefined;

function addressPolicy(allowPrivate: SafeFetchOptions['allowPrivate']): AddressPolicy {
  return (address) => {
    const reason = nonPublicReason(address);
    if (reason === undefined || allowPrivate === true) return undefined;
    if (Array.isArray(allowPrivate) && (allowPrivate as readonly string[]).includes(address)) return undefined;
    return reason;
  };
}

/** A DNS lookup that fails when any address the name resolves to is refused; the checked address is the one connected to. */
function guardedLookup(refuse: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const first = addresses[0];
      if (!first) {
        callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        return;
      }
      for (const entry of addresses) {
        const reason = refuse(entry.address);
        if (reason !== undefined) {
          callback(new UrlRefusedError(`refused: ${hostname} resolves to ${entry.address} (${reason})`), '', 0);
          return;
        }
      }
      if (options.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

/** Parses and checks a URL: http/https only, no credentials, and an IP-literal host must pass the policy. */
function checkUrl(raw: string, refuse: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefusedError(`not a valid absolute URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UrlRefusedError(`only http and https URLs are allowed, not ${url.protocol.replace(/:$/, '')}`);
  }
  if (url.username !== '' || url.password !== '') throw new UrlRefusedError('URLs with credentials are not allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === '') throw new UrlRefusedError(`URL has no host: ${raw}`);
  if (isIP(host) !== 0) {
    const reason = refuse(host);
    if (reason !== undefined) throw new UrlRefusedError(`refused: ${host} is not a public address (${reason})`);
  }
  return url;
}

interface Hop {
  status: number;
  headers: IncomingHttpHeaders;
  location: string | undefined;
  body: Buffer;
  truncated: boolean;
}

function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(createGunzip());
  if (encoding === 'deflate') return response.pipe(createInflate());
  if (encoding === 'br') return response.pipe(createBrotliDecompress());
  return response;
}

function requestOnce(url: URL, refuse: AddressPolicy, signal: AbortSignal, maxBytes: number, headers: Record<string, string>): Promise<Hop> {
  return new Promise<Hop>((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, { method: 'GET', headers, lookup: guardedLookup(refuse), signal, agent: false }, (response) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location !== undefined && [301, 302, 303, 307, 308].includes(status)) {
        response.resume();
        request.destroy();
        resolve({ status, headers: response.headers, location, body: Buffer.alloc(0), truncated: false });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = (truncated: boolean): void => {
        if (done) return;
        done = true;
        resolve({ status, headers: response.headers, location: undefined, body: Buffer.concat(chunks, size), truncated });
      };
      const stream = decoded(response);
      stream.on('data', (chunk: Buffer) => {
        if (done) return;
        const room = maxBytes - size;
        if (chunk.length > room) {
          if (room > 0) chunks.push(chunk.subarray(0, room));
          size += Math.max(0, room);
          finish(true);
          request.destroy();
          stream.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      stream.on('end', () => finish(false));
      stream.on('error', (error) => {
        if (!done) reject(error);
      });
      response.on('error', (error) => {
        if (!done) reject(error);
      });
    });
    request.on('error', reject);
    request.end();
  });
}

/**
 * GET a URL with SSRF guards: http/https only; the host's addresses (every one DNS returns, and IP
 * literals) must be public unless `allowPrivate` says otherwise — checked inside the connection's own
 * lookup, so the checked address is the one connected to; redirects are followed by hand (at most
 * `maxRedirects`), each hop checked again; the body is streamed and cut at `maxBytes`; one time
 * limit covers all hops and `signal` cancels. Never throws for HTTP error statuses.
 */
export async function safeFetch(rawUrl: string, options: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxBytes = options.maxBytes ?? 1_000_000;
  const maxRedirects = options.maxRedirects ?? 5;
  const refuse = addressPolicy(options.allowPrivate);
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const headers: Record<string, string> = {
    'user-agent': 'agentlib/0.1',
    accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.5',
    'accept-encoding': 'gzip, deflate, br',
    ...options.headers,
  };
  const redirects: string[] = [];
  let url = checkUrl(rawUrl, refuse);
  for (;;) {
    let hop: Hop;
    try {
      hop = await requestOnce(url, refuse, signal, maxBytes, headers);
    } catch (error) {
      if (error instanceof UrlRefusedError) throw error;
      if (timeout.aborted) throw new Error(`fetching ${url.href} timed out after ${timeoutMs} ms`);
      if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error('fetch cancelled');
      const cause = error instanceof Error && error.cause instanceof UrlRefusedError ? error.cause : undefined;
      if (cause) throw cause;
      throw new Error(`fetching ${url.href} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (hop.location !== undefined) {
      if (redirects.length >= maxRedirects) throw new UrlRefusedError(`too many redirects (more than ${maxRedirects}) starting at ${rawUrl}`);
      redirects.push(url.href);
      let next: string;
      try {
        next = new URL(hop.location, url).href;
      } catch {
        throw new UrlRefusedError(`invalid redirect location: ${hop.location}`);
      }
      url = checkUrl(next, refuse);
      continue;
    }
    const rawType = String(hop.headers['content-type'] ?? '');
    const [mediaType = '', ...params] = rawType.split(';');
    const charset = params
      .map((param) => /^\s*charset\s*=\s*"?([^";]+)"?/i.exec(param)?.[1])
      .find((value): value is string => value !== undefined);
    return {
      url: url.href,
      status: hop.status,
      headers: hop.headers,
      contentType: mediaType.trim().toLowerCase(),
      charset,
      body: hop.body,
      truncated: hop.truncated,
      redirects,
    };
  }
}
