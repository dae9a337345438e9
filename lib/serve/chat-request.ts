import { isPlainObject } from '../core/json.js';
import { badRequest } from './http-error.js';
import { parseApprove, parseMessages, parseResponseFormat, type RunRequest } from './run-request.js';

/** A validated `POST /v1/chat/completions` request. */
export interface ChatRequest {
  run: RunRequest;
  stream: boolean;
  /** `stream_options.include_usage`: a last chunk with usage and no choices. */
  includeUsage: boolean;
}

/**
 * Validates an OpenAI chat-completions body. `messages` (roles system, developer, user,
 * assistant; text content) is required; `model`, `temperature` and the other sampling fields are
 * accepted and ignored (the served agent has its own); `stream`, `stream_options.include_usage`
 * and `response_format` (`text`, `json_object`, `json_schema`) are honoured; `n` > 1 and client-side
 * `tools` are rejected (the agent runs its own tools). agentlib extension: `approve`.
 */
export function parseChatRequest(body: unknown): ChatRequest {
  if (!isPlainObject(body)) throw badRequest('The request body must be a JSON object');
  if (body['model'] !== undefined && typeof body['model'] !== 'string') throw badRequest('"model" must be a string');
  const raw = body['messages'];
  const messages = parseMessages(Array.isArray(raw) ? raw.map((m: unknown) => (isPlainObject(m) && m['role'] === 'developer' ? { ...m, role: 'system' } : m)) : raw);
  const stream = body['stream'];
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') throw badRequest('"stream" must be a boolean');
  const streamOptions = body['stream_options'];
  if (streamOptions !== undefined && streamOptions !== null && !isPlainObject(streamOptions)) throw badRequest('"stream_options" must be an object');
  const n = body['n'];
  if (n !== undefined && n !== null && n !== 1) throw badRequest('"n" must be 1: the agent gives one answer');
  if (body['tools'] !== undefined && body['tools'] !== null) throw badRequest('"tools" is not supported: the served agent calls its own tools');
  const run: RunRequest = { messages, approve: parseApprove(body['approve']) };
  const format = body['response_format'];
  if (format !== undefined && format !== null) {
    if (!isPlainObject(format)) throw badRequest('"response_format" must be an object');
    if (format['type'] === 'json_schema') {
      const spec = format['json_schema'];
      if (!isPlainObject(spec)) throw badRequest('"response_format.json_schema" must be an object with a "schema"');
      run.responseFormat = parseResponseFormat(spec['schema'], 'response_format.json_schema.schema');
    } else if (format['type'] === 'json_object') {
      run.responseFormat = { type: 'object' };
    } else if (format['type'] !== 'text') {
      throw badRequest('"response_format.type" must be text, json_object or json_schema');
    }
  }
  return { run, stream: stream === true, includeUsage: isPlainObject(streamOptions) && streamOptions['include_usage'] === true };
}
