import { isPlainObject } from '../../core/json.js';
import type { Message } from '../../core/message.js';
import { badRequest } from '../http-error.js';
import { parseMessages, parseMetadata } from '../run-request.js';

/** A graph run as `POST /invoke` and `POST /stream` of a served graph received it. */
export interface GraphRunRequest {
  /** The input: the prompt as one user message, or messages; none runs the graph on `data` alone. */
  messages?: Message[];
  /** The checkpoint thread (new: it must have no checkpoints yet). Default: a new id. */
  threadId?: string;
  /** Initial `state.data`. */
  data?: Record<string, unknown>;
  /** The caller's own data, returned unchanged. */
  metadata?: Record<string, unknown>;
}

/** `POST /resume`: the answer to a pending interrupt. */
export interface GraphResumeRequest {
  interruptId: string;
  /** Any JSON value: what the interrupted node's `yield` returns. */
  response: unknown;
  /** Answer with server-sent events instead of one JSON object. */
  stream: boolean;
  metadata?: Record<string, unknown>;
}

/** Thread ids: REFERENCE.md §7. */
const ID = /^[A-Za-z0-9_.-]{1,128}$/;
/** `<threadId>:<nonce>`. */
const INTERRUPT_ID = /^[A-Za-z0-9_.-]{1,128}:[A-Za-z0-9_.-]{1,128}$/;
const RUN_KEYS: ReadonlySet<string> = new Set(['prompt', 'messages', 'thread_id', 'data', 'metadata']);
const RESUME_KEYS: ReadonlySet<string> = new Set(['interrupt_id', 'response', 'stream', 'metadata']);
const MAX_DATA_KEYS = 256;

function refuseUnknown(body: Record<string, unknown>, allowed: ReadonlySet<string>): void {
  const unknown = Object.keys(body).filter((key) => !allowed.has(key));
  if (unknown.length > 0) throw badRequest(`Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k.slice(0, 64)}"`).join(', ')}; expected ${[...allowed].join(', ')}`);
}

/** Validates `thread_id` (REFERENCE.md §7). */
export function parseThreadId(value: unknown, field = 'thread_id'): string {
  if (typeof value !== 'string' || !ID.test(value) || value.includes('..')) throw badRequest(`"${field}" must be 1–128 characters of A–Z a–z 0–9 _ . - (no "..")`);
  return value;
}

/**
 * Validates the body of a served graph's `/invoke` and `/stream`: at most one of `prompt` (a
 * string) or `messages`, and optionally `thread_id`, `data` (the initial `state.data`, an object),
 * `metadata`. Unknown keys are refused (400).
 */
export function parseGraphRunRequest(body: unknown): GraphRunRequest {
  if (!isPlainObject(body)) throw badRequest('The request body must be a JSON object');
  refuseUnknown(body, RUN_KEYS);
  const request: GraphRunRequest = {};
  if (body['prompt'] !== undefined && body['messages'] !== undefined) throw badRequest('Send "prompt" (a string) or "messages" (an array), not both');
  if (body['prompt'] !== undefined) {
    const prompt = body['prompt'];
    if (typeof prompt !== 'string' || prompt.trim() === '') throw badRequest('"prompt" must be a non-empty string');
    request.messages = [{ role: 'user', content: prompt }];
  } else if (body['messages'] !== undefined) {
    request.messages = parseMessages(body['messages']);
  }
  if (body['thread_id'] !== undefined) request.threadId = parseThreadId(body['thread_id']);
  if (body['data'] !== undefined) {
    const data = body['data'];
    if (!isPlainObject(data) || Object.keys(data).length > MAX_DATA_KEYS) throw badRequest(`"data" must be an object with at most ${MAX_DATA_KEYS} keys (the initial state.data)`);
    request.data = data;
  }
  if (body['metadata'] !== undefined) request.metadata = parseMetadata(body['metadata']);
  return request;
}

/** Validates the body of `POST /resume`: `interrupt_id`, `response` (any JSON, required), optional `stream`, `metadata`. */
export function parseGraphResumeRequest(body: unknown): GraphResumeRequest {
  if (!isPlainObject(body)) throw badRequest('The request body must be a JSON object');
  refuseUnknown(body, RESUME_KEYS);
  const id = body['interrupt_id'];
  if (typeof id !== 'string' || !INTERRUPT_ID.test(id) || id.includes('..')) throw badRequest('"interrupt_id" must be the id of a pending interrupt (<thread_id>:<id>, as /invoke returned it)');
  if (!('response' in body) || body['response'] === undefined) throw badRequest('"response" is required: the answer to the interrupt (any JSON value)');
  const stream = body['stream'];
  if (stream !== undefined && typeof stream !== 'boolean') throw badRequest('"stream" must be true or false');
  const request: GraphResumeRequest = { interruptId: id, response: body['response'], stream: stream === true };
  if (body['metadata'] !== undefined) request.metadata = parseMetadata(body['metadata']);
  return request;
}
