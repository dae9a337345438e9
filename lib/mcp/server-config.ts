import { ConfigurationError } from '../core/errors/configuration-error.js';

/** A stdio MCP server: a command agentlib spawns and talks to over stdin/stdout. */
export interface MCPStdioServerConfig {
  /** Name of the server (prefix of its tools, label in messages). */
  name?: string;
  transport?: 'stdio';
  command: string;
  args?: readonly string[];
  /** Extra environment; the server inherits only PATH, HOME and a few others, never the caller's API keys. */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
}

/** A remote MCP server over Streamable HTTP (falling back to the older HTTP+SSE transport). */
export interface MCPHttpServerConfig {
  /** Name of the server (prefix of its tools, label in messages). */
  name?: string;
  transport?: 'http';
  url: string;
  /** Extra request headers (`Authorization: Bearer …`). */
  headers?: Readonly<Record<string, string>>;
}

/** Where an MCP server is: a command to spawn, or a URL. */
export type MCPServerConfig = MCPStdioServerConfig | MCPHttpServerConfig;

/** True for a stdio server config. */
export function isStdioConfig(config: MCPServerConfig): config is MCPStdioServerConfig {
  return typeof (config as { command?: unknown }).command === 'string';
}

/** The label of a server in messages: its name, else its command or URL host. */
export function serverLabel(config: MCPServerConfig): string {
  if (config.name !== undefined) return config.name;
  if (isStdioConfig(config)) return config.command.split(/[\\/]/).pop() ?? config.command;
  try {
    return new URL(config.url).host;
  } catch {
    return config.url;
  }
}

/** Checks a server config; throws ConfigurationError naming the problem (a command and a URL both given, a bad URL, …). */
export function checkServerConfig(config: MCPServerConfig): void {
  const raw = config as unknown as Record<string, unknown>;
  if (typeof raw !== 'object' || raw === null) throw new ConfigurationError('An MCP server config must be an object with "command" (stdio) or "url" (HTTP)');
  const hasCommand = raw['command'] !== undefined;
  const hasUrl = raw['url'] !== undefined;
  const label = typeof raw['name'] === 'string' ? `MCP server "${raw['name']}"` : 'An MCP server';
  if (hasCommand === hasUrl) throw new ConfigurationError(`${label} needs exactly one of "command" (stdio) and "url" (HTTP)`);
  if (hasCommand) {
    if (typeof raw['command'] !== 'string' || raw['command'] === '') throw new ConfigurationError(`${label}: "command" must be a non-empty string`);
    if (raw['transport'] !== undefined && raw['transport'] !== 'stdio') throw new ConfigurationError(`${label}: a "command" server uses the stdio transport, not ${JSON.stringify(raw['transport'])}`);
    for (const key of ['url', 'headers']) if (raw[key] !== undefined) throw new ConfigurationError(`${label}: "${key}" is for HTTP servers; a stdio server has command, args, env and cwd`);
    return;
  }
  if (raw['transport'] !== undefined && raw['transport'] !== 'http') throw new ConfigurationError(`${label}: a "url" server uses the http transport, not ${JSON.stringify(raw['transport'])}`);
  for (const key of ['args', 'env', 'cwd']) if (raw[key] !== undefined) throw new ConfigurationError(`${label}: "${key}" is for stdio servers; an HTTP server has url and headers`);
  let url: URL;
  try {
    url = new URL(String(raw['url']));
  } catch {
    throw new ConfigurationError(`${label}: "url" is not a URL: ${JSON.stringify(raw['url'])}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigurationError(`${label}: "url" must be http:// or https://, got ${url.protocol}`);
}
