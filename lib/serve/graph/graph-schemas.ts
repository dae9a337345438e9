import type { JsonSchema } from '../../core/json.js';

const ID_PATTERN = '^[A-Za-z0-9_.-]{1,128}$';

/** The body of a served graph's `POST /invoke` and `POST /stream` (see parseGraphRunRequest). */
export const GRAPH_RUN_REQUEST_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    prompt: { type: 'string', minLength: 1, description: 'The input as one user message (or send "messages", or neither).' },
    messages: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'object', required: ['role', 'content'] }, description: 'The input messages; the last one from the user.' },
    thread_id: { type: 'string', pattern: ID_PATTERN, description: 'The checkpoint thread of the run (new; default: a new id).' },
    data: { type: 'object', maxProperties: 256, description: 'The initial state.data.' },
    metadata: { type: 'object', maxProperties: 64, description: 'Returned unchanged.' },
  },
  not: { required: ['prompt', 'messages'] },
};

/** The body of `POST /resume`. */
export const GRAPH_RESUME_REQUEST_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['interrupt_id', 'response'],
  properties: {
    interrupt_id: { type: 'string', description: 'The pending interrupt (interrupt_id of the interrupted run).' },
    response: { description: "The person's answer: any JSON value, returned by the interrupted node's yield." },
    stream: { type: 'boolean', description: 'Answer with server-sent events (as POST /stream) instead of one JSON object.' },
    metadata: { type: 'object', maxProperties: 64, description: 'Returned unchanged.' },
  },
};
