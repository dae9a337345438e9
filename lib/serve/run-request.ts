import { isPlainObject, type JsonSchema } from '../core/json.js';
import type { Message } from '../core/message.js';
import { prepareResponseFormat } from '../agent/structured-output.js';
import { compileGlob } from '../safety/glob.js';
import { badRequest } from './http-error.js';

/** One agent run as the HTTP layer received it (from /invoke, /stream or /v1/chat/completions). */
export interface RunRequest {
  /** The new input: appended to the session's history (if any), then run. */
  messages: Message[];
  /** Continue (and save) this conversation. */
  sessionId?: string;
  /** Structured output for this run (a JSON Schema of an object). */
  responseFormat?: JsonSchema;
  /** The caller's own data, returned unchanged (never shown to the model or the tools). */
  metadata?: Record<string, unknown>;
  /** Tool-name globs whose review-gated calls this request approves. */
  approve: readonly string[];
}

/** Session ids: REFERENCE.md §7 (no path tricks, bounded length). */
const SESSION_ID = /^[A-Za-z0-9_.-]{1,128}$/;
const ROLES: ReadonlySet<string> = new Set(['system', 'user', 'assistant']);
const INVOKE_KEYS: ReadonlySet<string> = new Set(['prompt', 'messages', 'session_id', 'response_format', 'metadata', 'approve']);
const MAX_MESSAGES = 1000;
const MAX_APPROVE = 64;
const MAX_METADATA_KEYS = 64;
const NO_GLOBS: readonly string[] = Object.freeze([]);

/** A message's text: a string, or OpenAI content parts of type `text`. */
function contentText(content: unknown, where: string): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown, i) => {
        if (isPlainObject(part) && part['type'] === 'text' && typeof part['text'] === 'string') return part['text'];
        throw badRequest(`${where}.content[${i}] must be a text part ({ "type": "text", "text": "…" }); other content is not supported`);
      })
      .join('');
  }
  throw badRequest(`${where}.content must be a string`);
}

/** Validates `messages`: a non-empty array of `{ role: system|user|assistant, content }`, the last from the user. */
export function parseMessages(value: unknown, field = 'messages'): Message[] {
  if (!Array.isArray(value) || value.length === 0) throw badRequest(`"${field}" must be a non-empty array of messages`);
  if (value.length > MAX_MESSAGES) throw badRequest(`"${field}" has more than ${MAX_MESSAGES} messages`);
  const messages = value.map((item: unknown, i): Message => {
    const where = `${field}[${i}]`;
    if (!isPlainObject(item)) throw badRequest(`${where} must be an object with "role" and "content"`);
    const role = item['role'];
    if (typeof role !== 'string' || !ROLES.has(role)) throw badRequest(`${where}.role must be "system", "user" or "assistant"`);
    return { role: role as Message['role'], content: contentText(item['content'], where) };
  });
  if (messages.at(-1)?.role !== 'user') throw badRequest(`the last of "${field}" must have role "user"`);
  return messages;
}

/** Validates `session_id` (REFERENCE.md §7). */
export function parseSessionId(value: unknown): string {
  if (typeof value !== 'string' || !SESSION_ID.test(value) || value.includes('..')) {
    throw badRequest('"session_id" must be 1–128 characters of A–Z a–z 0–9 _ . - (no "..")');
  }
  return value;
}

/** Validates `approve`: an array of tool-name globs (`["refund_*", "lookup_order"]`). */
export function parseApprove(value: unknown): readonly string[] {
  if (value === undefined) return NO_GLOBS;
  if (!Array.isArray(value) || value.length > MAX_APPROVE) throw badRequest(`"approve" must be an array of at most ${MAX_APPROVE} tool-name globs`);
  return value.map((item: unknown, i) => {
    if (typeof item !== 'string' || item.length === 0 || item.length > 256) throw badRequest(`approve[${i}] must be a non-empty glob of at most 256 characters`);
    compileGlob(item); // a GlobSyntaxError becomes a 400
    return item;
  });
}

/** Validates a JSON Schema `response_format` by preparing it as the run would (ConfigurationError → 400). */
export function parseResponseFormat(value: unknown, field = 'response_format'): JsonSchema {
  if (!isPlainObject(value)) throw badRequest(`"${field}" must be a JSON Schema object`);
  prepareResponseFormat(value);
  return value;
}

/** Validates `metadata`: an object of at most 64 keys. */
export function parseMetadata(value: unknown): Record<string, unknown> {
  if (!isPlainObject(value) || Object.keys(value).length > MAX_METADATA_KEYS) throw badRequest(`"metadata" must be an object with at most ${MAX_METADATA_KEYS} keys`);
  return value;
}

/**
 * Validates the body of `/invoke` and `/stream`: `{ prompt } | { messages }` plus optional
 * `session_id`, `response_format`, `metadata`, `approve`. Unknown keys are rejected (400), so a
 * misspelled option never goes unnoticed.
 */
export function parseRunRequest(body: unknown): RunRequest {
  if (!isPlainObject(body)) throw badRequest('The request body must be a JSON object');
  let unknown: string[] | undefined;
  for (const key of Object.keys(body)) if (!INVOKE_KEYS.has(key)) (unknown ??= []).push(key);
  if (unknown !== undefined) throw badRequest(`Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k.slice(0, 64)}"`).join(', ')}; expected prompt or messages, and optionally session_id, response_format, metadata, approve`);
  const hasPrompt = body['prompt'] !== undefined;
  const hasMessages = body['messages'] !== undefined;
  if (hasPrompt === hasMessages) throw badRequest('Send exactly one of "prompt" (a string) or "messages" (an array)');
  let messages: Message[];
  if (hasPrompt) {
    const prompt = body['prompt'];
    if (typeof prompt !== 'string' || prompt.trim() === '') throw badRequest('"prompt" must be a non-empty string');
    messages = [{ role: 'user', content: prompt }];
  } else {
    messages = parseMessages(body['messages']);
  }
  const request: RunRequest = { messages, approve: parseApprove(body['approve']) };
  if (body['session_id'] !== undefined) request.sessionId = parseSessionId(body['session_id']);
  if (body['response_format'] !== undefined) request.responseFormat = parseResponseFormat(body['response_format']);
  if (body['metadata'] !== undefined) request.metadata = parseMetadata(body['metadata']);
  return request;
}
