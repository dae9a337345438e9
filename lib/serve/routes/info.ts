import type { Context } from 'hono';
import { RUN_REQUEST_SCHEMA } from '../api-schemas.js';
import { openApiDocument } from '../openapi.js';
import type { ServeRuntime } from '../runtime.js';

/** `GET /health`: `{ status, version, agent, provider, model, tools, active_runs }` (while draining every route, this one too, answers 503). */
export function healthRoute(runtime: ServeRuntime): (c: Context) => Response {
  const { info } = runtime;
  const tools = info.tools.map((t) => t.name);
  return (c) => c.json({ status: 'ok', version: info.version, agent: info.name, provider: info.provider, model: info.model, tools, active_runs: runtime.tracker.active });
}

/** `GET /schema`: the agent's name, the request schema, its tools with JSON schemas, and the output schema when structured. */
export function schemaRoute(runtime: ServeRuntime): (c: Context) => Response {
  const { info } = runtime;
  const body = {
    name: info.name,
    provider: info.provider,
    model: info.model,
    input_schema: RUN_REQUEST_SCHEMA,
    tools: info.tools,
    ...(info.outputSchema === undefined ? {} : { output_schema: info.outputSchema }),
  };
  return (c) => c.json(body);
}

/** `GET /openapi.json`: the OpenAPI 3.1 document. */
export function openApiRoute(runtime: ServeRuntime): (c: Context) => Response {
  const body = openApiDocument(runtime.info, { playground: runtime.playground, auth: runtime.auth });
  return (c) => c.json(body);
}
