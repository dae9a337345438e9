import type { JsonSchema } from '../core/json.js';

const MESSAGE: JsonSchema = {
  type: 'object',
  required: ['role', 'content'],
  properties: {
    role: { type: 'string', enum: ['system', 'user', 'assistant'] },
    content: {
      anyOf: [
        { type: 'string' },
        { type: 'array', items: { type: 'object', required: ['type', 'text'], properties: { type: { const: 'text' }, text: { type: 'string' } } } },
      ],
    },
  },
};

/** The body of `POST /invoke` and `POST /stream`. */
export const RUN_REQUEST_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    prompt: { type: 'string', minLength: 1, description: 'The user message (or send "messages").' },
    messages: { type: 'array', minItems: 1, maxItems: 1000, items: MESSAGE, description: 'Messages to append; the last one from the user.' },
    session_id: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,128}$', description: 'Continue this conversation (its history is kept by the server).' },
    response_format: { type: 'object', description: 'A JSON Schema of an object: structured output, returned as "parsed".' },
    metadata: { type: 'object', maxProperties: 64, description: 'Returned unchanged; never shown to the model or tools.' },
    approve: { type: 'array', maxItems: 64, items: { type: 'string', minLength: 1, maxLength: 256 }, description: 'Tool-name globs whose review-gated calls this request approves.' },
  },
  oneOf: [{ required: ['prompt'] }, { required: ['messages'] }],
};

/** The 200 body of `POST /invoke` (and the data of the `run-end` event of `/stream`). */
export const INVOKE_RESPONSE_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['content', 'tool_calls', 'iterations', 'usage', 'run_id', 'status'],
  properties: {
    content: { type: 'string' },
    tool_calls: { type: 'array', items: { type: 'object', required: ['tool_name', 'parameters'], properties: { tool_name: { type: 'string' }, parameters: { type: 'object' } } } },
    iterations: { type: 'integer' },
    usage: {
      type: 'object',
      required: ['prompt_tokens', 'completion_tokens', 'total_tokens', 'cost_usd'],
      properties: { prompt_tokens: { type: 'integer' }, completion_tokens: { type: 'integer' }, total_tokens: { type: 'integer' }, cost_usd: { type: 'number' } },
    },
    run_id: { type: 'string' },
    status: { type: 'string', enum: ['completed', 'max-iterations', 'budget-exceeded', 'terminal-tool', 'stop-condition', 'routing-only'] },
    session_id: { type: 'string' },
    parsed: {},
    metadata: { type: 'object' },
  },
};

/** Every error response. */
export const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'object', required: ['type', 'message'], properties: { type: { type: 'string' }, message: { type: 'string' } } } },
};

/** The accepted part of an OpenAI chat-completions request (other OpenAI fields are ignored). */
export const CHAT_COMPLETION_REQUEST_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['messages'],
  properties: {
    model: { type: 'string', description: 'Ignored: the served agent uses its own model.' },
    messages: { type: 'array', minItems: 1, items: MESSAGE },
    stream: { type: 'boolean' },
    stream_options: { type: 'object', properties: { include_usage: { type: 'boolean' } } },
    response_format: { type: 'object' },
    approve: { type: 'array', items: { type: 'string' }, description: 'agentlib extension: tool-name globs to approve.' },
  },
};
