import { UsageError } from '../cli/usage-error.js';
import { writeJson } from '../cli/output.js';
import type { CommandArguments, CommandContext } from './command-module.js';
import { parseHeaders, serverTarget } from './mcp/server-target.js';

const ACTIONS = ['serve', 'tools', 'call'] as const;

/** The words after the action: the `target..` positional and anything after `--`. */
function targetWords(args: CommandArguments): string[] {
  const target = Array.isArray(args.target) ? args.target.map(String) : [];
  const rest = args._.slice(1).map(String);
  return [...target, ...rest];
}

/** `agentlib mcp serve|tools|call`. */
export async function run(args: CommandArguments, context: CommandContext): Promise<number> {
  const action = String(args.action);
  const words = targetWords(args);
  if (action === 'serve') {
    const { serve } = await import('./mcp/serve.js');
    return serve(args, words, context);
  }
  if (action !== 'tools' && action !== 'call') throw new UsageError(`Unknown action "${action}": use ${ACTIONS.join(', ')}.`);
  const { io } = context;
  const cwd = io.cwd ?? process.cwd();
  const timeoutMs = typeof args.timeout === 'number' && args.timeout > 0 ? args.timeout * 1000 : 60_000;
  const headers = parseHeaders(args.header as unknown[] | undefined);
  const serverWords = action === 'call' ? words.slice(0, Math.max(1, words.length - (looksLikeJson(words.at(-1)) ? 2 : 1))) : words;
  const entry = await serverTarget(serverWords, {
    ...(typeof args.agent === 'string' ? { agent: args.agent } : {}),
    ...(headers === undefined ? {} : { headers }),
    trust: args.trustMcp === true,
    cwd,
    env: io.env,
  });
  const { MCPClient } = await import('../lib/mcp/mcp-client.js');
  const { name: _name, ...config } = entry;
  const client = new MCPClient({ ...config, name: entry.name }, { connectTimeoutMs: timeoutMs, callTimeoutMs: timeoutMs, reconnect: false });
  try {
    if (action === 'tools') {
      const tools = await client.listTools();
      if (args.json === true) writeJson(io, { server: entry.name, serverInfo: client.serverInfo ?? null, tools });
      else io.stdout.write(toolTable(tools));
      return 0;
    }
    const rest = words.slice(serverWords.length);
    const [tool, json] = rest;
    if (tool === undefined) throw new UsageError('Name the tool to call: agentlib mcp call <server> <tool> \'{"arg": 1}\'');
    const parsed = parseArguments(json);
    const result = await client.callTool(tool, parsed, { signal: context.signal, timeoutMs });
    if (args.json === true) writeJson(io, { server: entry.name, tool, text: result.text, structured: result.structured ?? null, media: result.media.map((m) => ({ type: m.type, mimeType: m.mimeType, bytes: Buffer.from(m.data, 'base64').length })) });
    else io.stdout.write(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
    return 0;
  } finally {
    await client.close();
  }
}

function looksLikeJson(word: string | undefined): boolean {
  return word !== undefined && /^\s*\{/.test(word);
}

function parseArguments(json: string | undefined): Record<string, unknown> {
  if (json === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new UsageError(`The tool arguments are not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError('The tool arguments must be a JSON object: \'{"name": "value"}\'');
  return value as Record<string, unknown>;
}

function toolTable(tools: readonly { name: string; description?: string; inputSchema: Record<string, unknown> }[]): string {
  if (tools.length === 0) return 'The server lists no tools.\n';
  const rows = tools.map((t) => {
    const properties = Object.keys((t.inputSchema['properties'] as Record<string, unknown> | undefined) ?? {});
    const required = new Set((t.inputSchema['required'] as string[] | undefined) ?? []);
    const params = properties.map((p) => (required.has(p) ? p : `${p}?`)).join(', ');
    const description = (t.description ?? '').replace(/\s+/g, ' ').trim();
    return [t.name, params, description.length > 60 ? `${description.slice(0, 59)}…` : description] as const;
  });
  const width = (i: 0 | 1): number => Math.max(i === 0 ? 4 : 10, ...rows.map((r) => r[i].length));
  const [w0, w1] = [width(0), Math.min(width(1), 40)];
  const line = (a: string, b: string, c: string): string => `${a.padEnd(w0)}  ${(b.length > w1 ? `${b.slice(0, w1 - 1)}…` : b).padEnd(w1)}  ${c}`.trimEnd();
  return `${[line('TOOL', 'PARAMETERS', 'DESCRIPTION'), ...rows.map((r) => line(r[0], r[1], r[2]))].join('\n')}\n${tools.length} tool${tools.length === 1 ? '' : 's'}\n`;
}
