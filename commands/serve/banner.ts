import type { AgentInfo } from '../../lib/serve/agent-info.js';
import type { ServeSettings } from './serve-options.js';

/** What `agentlib serve` prints once listening: the URL, every route, how requests are authenticated, and where run traces go. */
export function banner(url: string, info: AgentInfo, settings: ServeSettings, traceStore?: string): string {
  const lines = [
    `Serving agent "${info.name}" (${info.provider} ${info.model}) at ${url}`,
    `  POST ${url}/invoke                run once, JSON answer`,
    `  POST ${url}/stream                run with server-sent events`,
    `  POST ${url}/v1/chat/completions   OpenAI-compatible (stream and non-stream)`,
    `  GET  ${url}/health  ${url}/schema  ${url}/openapi.json`,
  ];
  if (settings.playground) lines.push(`  GET  ${url}/playground            chat in the browser`);
  lines.push(settings.authToken === undefined ? 'Auth: none (loopback only)' : 'Auth: Authorization: Bearer <token> required');
  if (settings.cors !== undefined) lines.push(`CORS: ${settings.cors}`);
  lines.push(traceStore === undefined ? 'Traces: not kept (--no-trace-store)' : `Traces: each run's is saved to ${traceStore} (agentlib trace ls --store ${traceStore})`);
  return `${lines.join('\n')}\n`;
}
