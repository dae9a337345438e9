import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { HttpError, badRequest } from './http-error.js';

/** Keys that could reach an object's prototype when a body is merged somewhere: rejected anywhere in a body. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** How deeply arrays and objects may nest in a request body. */
export const MAX_JSON_DEPTH = 64;

const decoder = new TextDecoder('utf-8', { fatal: true });

/** True for `application/json` and `application/<x>+json`, with or without parameters. */
function isJsonType(contentType: string | null): boolean {
  if (contentType === null) return false;
  if (contentType === 'application/json') return true;
  const type = (contentType.split(';', 1)[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'request_too_large_error', `The request body is larger than ${limit} bytes`);
}

/** Why a read stopped on `signal`: its reason when that is an HttpError (504, 408, 503), else a 503. */
function abortReason(signal: AbortSignal): HttpError {
  const reason: unknown = signal.reason;
  return HttpError.isInstance(reason) ? reason : new HttpError(503, 'service_unavailable_error', 'The request was cancelled');
}

function isAborted(signal: AbortSignal | undefined): signal is AbortSignal {
  return signal?.aborted === true;
}

/** Reads a Web body, stopping (413) as soon as it passes `limit`, or when `signal` aborts. */
async function readCapped(body: ReadableStream<Uint8Array>, limit: number, signal: AbortSignal | undefined): Promise<Uint8Array> {
  if (signal?.aborted === true) throw abortReason(signal);
  const reader = body.getReader();
  const onAbort = (): void => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (isAborted(signal)) throw abortReason(signal);
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(limit);
      }
      parts.push(value);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/**
 * Throws a 400 when `value` nests deeper than MAX_JSON_DEPTH or has a `__proto__`, `constructor`
 * or `prototype` key at any depth. Iterative, so a hostile body cannot overflow the stack.
 */
export function checkJsonShape(value: unknown): void {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; depth: number };
    if (typeof item.value !== 'object' || item.value === null) continue;
    if (item.depth >= MAX_JSON_DEPTH) throw badRequest(`The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`);
    if (Array.isArray(item.value)) {
      for (const child of item.value) if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: item.depth + 1 });
      continue;
    }
    for (const key of Object.keys(item.value)) {
      if (FORBIDDEN_KEYS.has(key)) throw badRequest(`The key "${key}" is not allowed in a request body`);
      const child = (item.value as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: item.depth + 1 });
    }
  }
}

/** The Node request behind a Hono context when served by @hono/node-server (its env holds `incoming`). */
function nodeIncoming(c: Context): IncomingMessage | undefined {
  const env = c.env as { incoming?: unknown } | undefined;
  const incoming = env?.incoming;
  return typeof incoming === 'object' && incoming !== null && typeof (incoming as IncomingMessage).on === 'function' && 'headers' in incoming ? (incoming as IncomingMessage) : undefined;
}

/**
 * Reads a Node request body up to `limit` bytes (413 past it), without building a Web stream.
 * Settles on every path: the body's end, an error, the connection closing before the end (400), and
 * `signal` aborting (the request timeout, the body deadline, a drain: rejects with its reason). A
 * reader that waited on a stalled client would hold the request's concurrency slot for good.
 */
function readIncoming(incoming: IncomingMessage, limit: number, signal: AbortSignal | undefined): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(abortReason(signal));
      return;
    }
    // Most bodies come in one chunk: an array only for the rest.
    let first: Buffer | undefined;
    let rest: Buffer[] | undefined;
    let size = 0;
    const cleanup = (): void => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
      signal?.removeEventListener('abort', onAbort);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        incoming.resume(); // the rest is dropped (bounded) once the 413 is written: end-after-body.ts
        reject(tooLarge(limit));
        return;
      }
      if (first === undefined) first = chunk;
      else (rest ??= [first]).push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(rest !== undefined ? Buffer.concat(rest, size) : (first ?? Buffer.alloc(0)));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(badRequest(`The request body could not be read: ${error.message}`));
    };
    const onClose = (): void => onError(new Error('the connection closed before the body was complete'));
    const onAbort = (): void => {
      cleanup();
      incoming.pause();
      reject(abortReason(signal as AbortSignal));
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Checks the declared type and length, reads the body with `read`, and parses it. */
function readJson(contentType: string | null, declared: string | null, limit: number, read: () => Promise<Uint8Array>): Promise<unknown> {
  if (!isJsonType(contentType)) {
    return Promise.reject(new HttpError(415, 'unsupported_media_type_error', 'The request body must be JSON (Content-Type: application/json)'));
  }
  if (declared !== null && Number(declared) > limit) return Promise.reject(tooLarge(limit));
  return read().then((bytes) => {
    if (bytes.byteLength > limit) throw tooLarge(limit);
    if (bytes.byteLength === 0) throw badRequest('The request body is empty; send a JSON object');
    return parseJson(bytes);
  });
}

function incomingHeader(incoming: IncomingMessage, name: string): string | null {
  const value = incoming.headers[name];
  return typeof value === 'string' ? value : null;
}

/**
 * Reads and parses the JSON body of a Node request (no Web Request or stream is built): the Node
 * fast path of `/invoke` and `/stream`, and the Hono routes under @hono/node-server. Errors as
 * {@link readJsonBody}.
 */
export function readIncomingJson(incoming: IncomingMessage, limit: number, signal?: AbortSignal): Promise<unknown> {
  return readJson(incomingHeader(incoming, 'content-type'), incomingHeader(incoming, 'content-length'), limit, () => readIncoming(incoming, limit, signal));
}

/**
 * Reads and parses a JSON request body: 415 unless the content type is JSON, 413 past `limit`
 * bytes (by Content-Length before reading, or while reading a chunked body), 400 for an empty
 * body, invalid UTF-8, invalid JSON, too deep nesting or prototype keys. Under @hono/node-server
 * it reads the Node request directly ({@link readIncomingJson}). The read stops when `signal`
 * aborts (rejecting with its reason).
 */
export function readJsonBody(c: Context, limit: number, signal?: AbortSignal): Promise<unknown> {
  const incoming = nodeIncoming(c);
  if (incoming !== undefined) return readIncomingJson(incoming, limit, signal);
  const request = c.req.raw;
  return readJson(request.headers.get('content-type'), request.headers.get('content-length'), limit, () => {
    if (request.body === null) return Promise.reject(badRequest('The request body is empty; send a JSON object'));
    return readCapped(request.body, limit, signal);
  });
}

/** Decodes (strict UTF-8) and parses `bytes`, then checks depth and keys. */
export function parseJson(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw badRequest('The request body is not valid UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badRequest(`The request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  checkJsonShape(value);
  return value;
}
