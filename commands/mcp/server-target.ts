import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../../cli/usage-error.js';
import { loadAgentConfig } from '../../lib/config/parse-agent-config.js';
import type { MCPServerEntry } from '../../lib/mcp/multi-mcp-client.js';
import { McpTrustStore, serverEntries, spawnDescription } from '../../lib/mcp/configured-servers.js';

/** Request headers from `--header "Name: value"` options. */
export function parseHeaders(values: readonly unknown[] | undefined): Record<string, string> | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const value of values) {
    const text = String(value);
    const colon = text.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header takes "Name: value", got ${JSON.stringify(text)}`);
    headers[text.slice(0, colon).trim()] = text.slice(colon + 1).trim();
  }
  return headers;
}

/** Splits a command given as one string on whitespace, keeping "double" or 'single' quoted parts together. */
export function splitCommand(text: string): string[] {
  const parts: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const match of text.matchAll(pattern)) parts.push(match[1] ?? match[2] ?? match[3] ?? '');
  return parts;
}

/**
 * The server `tools` / `call` talk to: a URL (with `--header`s), a server named in `--agent`'s
 * file (a stdio one only with `--trust-mcp` or a project approval, as in `agentlib run`), or a
 * command typed on the command line (the user typed it: it runs).
 */
export function serverTarget(words: readonly string[], options: { agent?: string; headers?: Record<string, string>; trust: boolean; cwd: string; vars?: Record<string, string>; env: Readonly<Record<string, string | undefined>> }): Promise<MCPServerEntry> | MCPServerEntry {
  const [first, ...rest] = words;
  if (first === undefined || first === '') throw new UsageError('Name the MCP server: a URL, a command (after --), or a server of --agent <file>.');
  if (/^https?:\/\//i.test(first)) {
    if (rest.length > 0) throw new UsageError(`A URL server takes no further words (got ${rest.join(' ')})`);
    return { name: new URL(first).host, url: first, ...(options.headers === undefined ? {} : { headers: options.headers }) };
  }
  const agentFile = options.agent ?? (words.length === 1 && existsSync(resolve(options.cwd, 'agent.yaml')) && !/[\s/\\]/.test(first) ? 'agent.yaml' : undefined);
  if (agentFile !== undefined) return fromAgentFile(first, resolve(options.cwd, agentFile), options);
  const command = words.length === 1 ? splitCommand(first) : [...words];
  const [executable, ...args] = command;
  if (executable === undefined) throw new UsageError('The server command is empty.');
  return { name: executable.split(/[\\/]/).pop() ?? executable, command: executable, args };
}

async function fromAgentFile(name: string, file: string, options: { trust: boolean; cwd: string; vars?: Record<string, string>; env: Readonly<Record<string, string | undefined>> }): Promise<MCPServerEntry> {
  const config = await loadAgentConfig(file, { env: options.env, ...(options.vars === undefined ? {} : { vars: options.vars }) });
  const entries = serverEntries(config.mcp?.servers ?? [], config.baseDir);
  const entry = entries.find((e) => e.name === name);
  if (entry === undefined) throw new UsageError(`${file} has no MCP server "${name}" (servers: ${entries.map((e) => e.name).join(', ') || 'none'})`);
  const description = spawnDescription(entry);
  if (description !== undefined && !options.trust && !new McpTrustStore(options.cwd).isTrusted(entry)) {
    throw new UsageError(`MCP server "${name}" of ${file} runs: ${description}\nPass --trust-mcp to run it.`);
  }
  return entry;
}
