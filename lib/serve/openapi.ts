import type { JsonSchema } from '../core/json.js';
import type { AgentInfo } from './agent-info.js';
import { CHAT_COMPLETION_REQUEST_SCHEMA, ERROR_SCHEMA, INVOKE_RESPONSE_SCHEMA, RUN_REQUEST_SCHEMA } from './api-schemas.js';

const ERROR_REF = { $ref: '#/components/schemas/Error' };

function errors(...codes: number[]): Record<string, unknown> {
  const descriptions: Record<number, string> = {
    400: 'invalid request',
    401: 'missing or wrong bearer token',
    403: 'Host not allowed',
    404: 'not found',
    405: 'method not allowed',
    408: 'the body did not arrive within the body timeout',
    413: 'body larger than the limit, or a session past its size limit',
    415: 'body is not JSON',
    422: 'serve --replay: the request is not in the cassette',
    429: 'too many concurrent requests',
    500: 'internal error',
    502: 'the model provider failed',
    503: 'shutting down',
    504: 'the run took longer than the request timeout',
  };
  return Object.fromEntries(codes.map((code) => [String(code), { description: descriptions[code] ?? 'error', content: { 'application/json': { schema: ERROR_REF } } }]));
}

const RUN_ERRORS = [400, 401, 403, 405, 408, 413, 415, 422, 429, 500, 502, 503, 504];

/** The OpenAPI 3.1 document of the server (`GET /openapi.json`). */
export function openApiDocument(info: AgentInfo, options: { playground: boolean; auth: boolean }): Record<string, unknown> {
  const json = (schema: JsonSchema): Record<string, unknown> => ({ 'application/json': { schema } });
  const paths: Record<string, unknown> = {
    '/invoke': {
      post: {
        summary: `Run the agent "${info.name}" once`,
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/RunRequest' }) },
        responses: { 200: { description: 'the run finished', content: json({ $ref: '#/components/schemas/InvokeResponse' }) }, ...errors(...RUN_ERRORS) },
      },
    },
    '/stream': {
      post: {
        summary: 'Run the agent, streaming its events as server-sent events',
        description: 'Named events serialise the AgentEvent stream (run-start, text-delta, tool-start, tool-end, tool-error, usage, …). run-end carries the /invoke object; a failure is one error event, then the stream ends.',
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/RunRequest' }) },
        responses: { 200: { description: 'an event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }, ...errors(...RUN_ERRORS) },
      },
    },
    '/v1/chat/completions': {
      post: {
        summary: 'OpenAI-compatible chat completions (stream and non-stream)',
        requestBody: { required: true, content: json(CHAT_COMPLETION_REQUEST_SCHEMA) },
        responses: { 200: { description: 'a chat.completion object, or chat.completion.chunk events when stream is true' }, ...errors(...RUN_ERRORS) },
      },
    },
    '/health': { get: { summary: 'Liveness and what is served', responses: { 200: { description: 'ok' }, ...errors(401, 503) } } },
    '/schema': { get: { summary: 'The agent: input schema, tools, output schema', responses: { 200: { description: 'the schema' }, ...errors(401) } } },
    '/openapi.json': { get: { summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1' }, ...errors(401) } } },
  };
  if (options.playground) paths['/playground'] = { get: { summary: 'A self-contained chat page for the agent', responses: { 200: { description: 'HTML', content: { 'text/html': {} } } } } };
  const doc: Record<string, unknown> = {
    openapi: '3.1.0',
    info: { title: `agentlib: ${info.name}`, version: info.version, description: `The agent "${info.name}" (${info.provider} ${info.model}) served by agentlib.` },
    paths,
    components: {
      schemas: {
        RunRequest: RUN_REQUEST_SCHEMA,
        InvokeResponse: info.outputSchema === undefined ? INVOKE_RESPONSE_SCHEMA : withParsed(info.outputSchema),
        Error: ERROR_SCHEMA,
      },
      ...(options.auth ? { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } } : {}),
    },
  };
  if (options.auth) doc['security'] = [{ bearer: [] }];
  return doc;
}

function withParsed(output: JsonSchema): JsonSchema {
  const properties = { ...(INVOKE_RESPONSE_SCHEMA['properties'] as Record<string, unknown>), parsed: output };
  return { ...INVOKE_RESPONSE_SCHEMA, properties };
}
